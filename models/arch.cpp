#include "models/arch.hpp"
#include "models/memory/dram_models.hpp"
#include "models/memory/replacement_policies.hpp"

#include <algorithm>

#include "sim/data_dir.hpp"
#include "sim/errors.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models {
namespace fs = std::filesystem;

fs::path preset_dir() { return sim::data_dir("WARPSIM_PRESET_DIR", "presets", WARPSIM_PRESET_DIR); }

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(preset_dir(), ec))
    if (entry.path().extension() == ".ini") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool is_preset_file(const std::string& preset) {
  return preset.find('/') != std::string::npos || fs::path(preset).extension() == ".ini";
}

fs::path preset_file(const std::string& preset) {
  if (is_preset_file(preset)) {
    if (!fs::is_regular_file(preset)) throw sim::InputError("--arch", "no preset file '" + preset + "'");
    return preset;
  }
  if (auto names = preset_names(); std::find(names.begin(), names.end(), preset) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw sim::InputError("--arch", "unknown architecture '" + preset + "'; known: " + known +
                                        " (or the path of a preset file, e.g. one 'warpsim arch derive' wrote)");
  }
  return preset_dir() / (preset + ".ini");
}

Arch load_arch(const std::string& preset, const std::vector<std::string>& overrides) {
  sim::Config config(arch_params());
  config.load_ini(preset_file(preset));
  for (const auto& o : overrides) config.set_assignment(o, "--set");
  config.validate();
  return arch_from_config(preset, std::move(config));
}

Arch arch_from_config(const std::string& preset, sim::Config c) {
  const sim::SpecReader read(c);
  auto u32 = [&](const char* key) { return read.u32(key); };
  auto u64 = [&](const char* key) { return read.u64(key); };
  Arch a;
  a.preset = preset;
  a.gpu = GpuSpec::from_config(c);
  a.sm = SmSpec::from_config(c);
  a.units = UnitsSpec::from_config(c);
  a.dispatch = DispatchSpec::from_config(c);
  a.l1 = memory::L1Spec::from_config(c);
  a.l2 = memory::L2Spec::from_config(c);

  a.dram_model = memory::DramModels::index_of(c.get_string("dram.model")).value();
  a.dram_bus_width_bits = u32("dram.bus_width_bits");
  a.dram_data_rate_mtps = u32("dram.data_rate_mtps");
  a.dram_latency_min = u32("dram.latency_min");
  a.dram_latency_max = u32("dram.latency_max");
  a.dram_channels = u32("dram.channels");
  a.dram_banks = u32("dram.banks");
  a.dram_refresh_interval_ns = u32("dram.refresh_interval_ns");
  a.dram_refresh_ns = u32("dram.refresh_ns");
  a.dram_turnaround_ns = u32("dram.turnaround_ns");
  a.dram_write_batch = u32("dram.write_batch");

  // Relations a single key's range cannot express (SpecReader::require says whom they blame).
  auto require = [&](bool ok, const char* key, std::initializer_list<const char*> others, const std::string& why) {
    read.require(ok, key, others, why);
  };
  require(a.dram_latency_min <= a.dram_latency_max, "dram.latency_min", {"dram.latency_max"}, "exceeds dram.latency_max");
  require(a.dram_refresh_ns < a.dram_refresh_interval_ns, "dram.refresh_ns", {"dram.refresh_interval_ns"},
          "must be shorter than dram.refresh_interval_ns");
  a.config = std::move(c);
  return a;
}

}  // namespace warpsim::models
