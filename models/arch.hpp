#pragma once
// An architecture preset, typed: the specs of the GPU's components, each declared beside the code
// that uses it, and the resolved configuration they were read from. A spec lists its keys with
// type, unit, range and meaning (params()) and reads and checks them (from_config()); a preset
// file (models/presets/*.ini) gives every key a value and its source. `warpsim arch show` lists
// them by component, and an unknown key in a preset or --set is an error.
//
// Each component is built from its own spec, and what it needs of the others is handed to it as
// such (the SM count, the core clock); only the assemblies of the whole GPU (Gpu, the memory
// system's specs below, the sampler, a run's bound and metrics) read the Arch.
#include <filesystem>
#include <string>
#include <vector>

#include "models/core/dispatch_spec.hpp"
#include "models/core/gpu_spec.hpp"
#include "models/core/sm_spec.hpp"
#include "models/core/units_spec.hpp"
#include "models/memory/dram_spec.hpp"
#include "models/memory/l1_spec.hpp"
#include "models/memory/l2_spec.hpp"
#include "models/memory/memory_system_specs.hpp"
#include "sim/config.hpp"

namespace warpsim::models {

struct Arch {
  std::string preset;  // "kepler-k20x", or a preset file's path
  GpuSpec gpu;
  SmSpec sm;
  UnitsSpec units;
  DispatchSpec dispatch;
  memory::L1Spec l1;
  memory::L2Spec l2;
  memory::DramSpec dram;
  // The resolved configuration behind these numbers, with each value's origin and source.
  sim::Config config;
};

// One component's part of a preset: its spec's title and keys, as `warpsim arch show` lists them.
struct ArchComponent {
  std::string title;  // the spec's kTitle
  std::vector<sim::ParamSpec> params;
};
// The components in the order above, which is the presets' order.
const std::vector<ArchComponent>& arch_components();
// Every preset key, with type, unit and description: the components' params() in that order.
const std::vector<sim::ParamSpec>& arch_params();

// What the memory system of this GPU is built from (make_memory_system, memory_system.hpp).
MemorySystemSpecs memory_system_specs(const Arch& arch);

// Names of the presets found in the preset directory, sorted.
std::vector<std::string> preset_names();
// The directory presets are read from: $WARPSIM_PRESET_DIR, or the one beside the executable's
// install, or the source tree's models/presets.
std::filesystem::path preset_dir();

// Whether `preset` names a preset file ("my-gpu.ini", "out/h200.ini") rather than a preset of
// preset_dir().
bool is_preset_file(const std::string& preset);
// The file of a preset given by name or path; an InputError for an unknown name (listing the
// known ones) or a missing file.
std::filesystem::path preset_file(const std::string& preset);
// Loads a preset, by name or from a preset file, and applies "key=value" overrides (--set). An
// unknown preset is an InputError listing the known ones; unknown keys and bad values name
// file:line or --set.
Arch load_arch(const std::string& preset, const std::vector<std::string>& overrides = {});
// Builds the typed view from a validated config (used by load_arch and by tests).
Arch arch_from_config(const std::string& preset, sim::Config config);

}  // namespace warpsim::models
