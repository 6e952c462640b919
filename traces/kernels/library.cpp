#include "traces/kernels/library.hpp"

#include <algorithm>

#include "sim/errors.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"

namespace warpsim::traces::kernels {

const std::vector<KernelDef>& library() {
  static const std::vector<KernelDef> table{
      read_offset_def(),       read_offset_nc_def(),   write_offset_def(),    read_offset_unroll_def(),
      strided_read_def(),      test_inner_struct_def(), test_inner_array_def(), transpose_naive_def(),
      transpose_shared_def(),  fma_chain_def(),        chase_def(),           persist_kernel_def(),
      empty_kernel_def(),      persist_loop_def(),
  };
  return table;
}

const KernelDef* find_kernel(const std::string& name) {
  for (const auto& k : library())
    if (k.name == name) return &k;
  return nullptr;
}

KernelInstance make_kernel(const std::string& name, const std::vector<std::string>& assignments,
                           const IsaTarget& isa) {
  const KernelDef* def = find_kernel(name);
  if (!def) {
    std::string known;
    for (const auto& k : library()) known += (known.empty() ? "" : ", ") + k.name;
    throw sim::InputError("--kernel", "unknown kernel '" + name + "'; known kernels: " + known);
  }
  sim::Config config(def->params);
  for (const auto& a : assignments) {
    auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw sim::InputError("-p", "expected key=value, got '" + a + "'");
    std::string key = a.substr(0, eq);
    if (!config.has(key)) {
      std::string known;
      for (const auto& k : config.keys()) known += (known.empty() ? "" : ", ") + k;
      throw sim::InputError("-p " + key, "kernel " + name + " has no parameter '" + key + "'; its parameters: " + known);
    }
    config.set_assignment(a, "-p");
  }
  config.validate();
  KernelArgs args(config, isa);
  KernelInstance instance;
  instance.source = def->build(args);
  for (const auto& key : config.keys()) {
    std::string value = config.get_string(key);
    auto derived = std::find_if(args.derived().begin(), args.derived().end(),
                                [&](const auto& d) { return d.first == key; });
    if (derived != args.derived().end()) value = derived->second;
    instance.params.emplace_back(key, value);
  }
  return instance;
}

}  // namespace warpsim::traces::kernels
