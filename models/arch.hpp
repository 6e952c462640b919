#pragma once
// An architecture preset, typed. The numbers come from a preset file (models/presets/*.ini),
// each with its source; `arch_params()` declares every key with its type, unit and meaning, so
// `warpsim arch show` can list them and an unknown key in a preset or --set is an error.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "models/core/dispatch_spec.hpp"
#include "models/core/gpu_spec.hpp"
#include "models/core/sm_spec.hpp"
#include "models/core/units_spec.hpp"
#include "models/memory/l1_spec.hpp"
#include "models/memory/l2_spec.hpp"
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

  // DRAM.
  std::uint32_t dram_bus_width_bits = 0, dram_data_rate_mtps = 0;
  std::uint32_t dram_model = 0;  // its position in DramModels (models/memory/dram_models.hpp)
  std::uint32_t dram_latency_min = 0, dram_latency_max = 0, dram_channels = 0, dram_banks = 0;
  std::uint32_t dram_refresh_interval_ns = 0, dram_refresh_ns = 0, dram_turnaround_ns = 0, dram_write_batch = 1;

  // The resolved configuration behind these numbers, with each value's origin and source.
  sim::Config config;

  double dram_bytes_per_second() const { return dram_bus_width_bits / 8.0 * dram_data_rate_mtps * 1e6; }
};

// Every preset key, with type, unit and description.
const std::vector<sim::ParamSpec>& arch_params();

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
