#include "models/arch.hpp"

#include <algorithm>

#include "sim/data_dir.hpp"
#include "sim/errors.hpp"

namespace warpsim::models {
namespace fs = std::filesystem;

namespace {
template <class Spec>
ArchComponent component() {
  return {Spec::kTitle, Spec::params()};
}
}  // namespace

const std::vector<ArchComponent>& arch_components() {
  static const std::vector<ArchComponent> components = {
      component<GpuSpec>(),        component<SmSpec>(),         component<UnitsSpec>(),
      component<DispatchSpec>(),   component<memory::L1Spec>(), component<memory::L2Spec>(),
      component<memory::DramSpec>()};
  return components;
}

const std::vector<sim::ParamSpec>& arch_params() {
  static const std::vector<sim::ParamSpec> params = [] {
    std::vector<sim::ParamSpec> all;
    for (const auto& component : arch_components())
      all.insert(all.end(), component.params.begin(), component.params.end());
    return all;
  }();
  return params;
}

MemorySystemSpecs memory_system_specs(const Arch& arch) {
  return {arch.l1, arch.l2, arch.dram, arch.gpu.sms, arch.gpu.core_clock_khz, arch.units.shared_latency};
}

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
  Arch a;
  a.preset = preset;
  a.gpu = GpuSpec::from_config(c);
  a.sm = SmSpec::from_config(c);
  a.units = UnitsSpec::from_config(c);
  a.dispatch = DispatchSpec::from_config(c);
  a.l1 = memory::L1Spec::from_config(c);
  a.l2 = memory::L2Spec::from_config(c);
  a.dram = memory::DramSpec::from_config(c);
  // Each spec checks the relations among its own keys. None relates keys of two components: the
  // one value that mixes them, an SM's L2 partition, is L2Spec::partition_near for any SM count.
  a.config = std::move(c);
  return a;
}

}  // namespace warpsim::models
