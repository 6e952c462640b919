#include "sweeps/spec_vocabulary.hpp"

#include "models/arch.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "traces/kernels/library.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::sweeps {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

// Config::set checks a value against its ParamSpec (type, range, choices) and names `where`.
void check_value(const std::vector<sim::ParamSpec>& specs, const std::string& key, const std::string& value,
                 const std::string& where, const std::string& owner) {
  bool known = false;
  std::vector<std::string> names;
  for (const auto& s : specs) {
    names.push_back(s.key);
    known = known || s.key == key;
  }
  if (!known) throw sim::InputError(where, owner + " has no parameter '" + key + "'; its parameters: " + join(names));
  sim::Config config(specs);
  config.set(key, value, where);
}

}  // namespace

std::vector<std::string> known_kernels() {
  std::vector<std::string> names;
  for (const auto& k : traces::kernels::library()) names.push_back(k.name);
  return names;
}

void check_kernel(const std::string& kernel, const std::string& where) {
  if (!traces::kernels::find_kernel(kernel))
    throw sim::InputError(where, "unknown kernel '" + kernel + "'; known: " + join(known_kernels()));
}

void check_kernel_parameter(const std::string& kernel, const std::string& name, const std::string& value,
                            const std::string& where) {
  if (kernel.empty()) {
    check_value(traces::kernels::l2_policy_params(), name, value, where, "a trace");
    return;
  }
  const auto* def = traces::kernels::find_kernel(kernel);
  if (!def) throw sim::InputError(where, "unknown kernel '" + kernel + "'");
  check_value(def->params, name, value, where, "kernel " + kernel);
}

void check_preset_parameter(const std::string& key, const std::string& value, const std::string& where) {
  const auto& specs = models::arch_params();
  for (const auto& s : specs)
    if (s.key == key) {
      sim::Config config(specs);
      config.set(key, value, where);
      return;
    }
  throw sim::InputError(where, "unknown preset parameter '" + key + "' (see `warpsim arch show ARCH` for the keys)");
}

}  // namespace warpsim::sweeps
