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

  a.l2_bytes = u64("l2.size_bytes");
  a.l2_line_bytes = u32("l2.line_bytes");
  a.l2_sector_bytes = u32("l2.sector_bytes");
  a.l2_ways = u32("l2.ways");
  a.l2_replacement = memory::ReplacementPolicies::index_of(c.get_string("l2.replacement")).value();
  a.l2_slices = u32("l2.slices");
  a.l2_hit_latency = u32("l2.hit_latency");
  a.l2_bytes_per_cycle_per_slice = u32("l2.bytes_per_cycle_per_slice");
  a.l2_partitions = u32("l2.partitions");
  a.l2_clock_khz = u64("l2.clock_khz");
  a.l2_lookups_per_cycle = u32("l2.lookups_per_cycle");
  a.l2_far_latency = u32("l2.far_latency");
  a.l2_launch_lookups = u64("l2.launch_lookups");
  a.l2_launch_lookup_hits = u64("l2.launch_lookup_hits");
  a.l2_dirty_lines_per_set = u32("l2.dirty_lines_per_set");
  a.l2_fill_partial_writes = c.get_bool("l2.fill_partial_writes");
  a.l2_persistence = c.get_bool("l2.persistence");
  a.l2_persist_max_bytes = u64("l2.persist_max_bytes");
  a.l2_max_window_bytes = u64("l2.max_window_bytes");
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
  require(a.l2_line_bytes % a.l2_sector_bytes == 0, "l2.sector_bytes", {"l2.line_bytes"}, "must divide l2.line_bytes");
  require(a.dram_latency_min <= a.dram_latency_max, "dram.latency_min", {"dram.latency_max"}, "exceeds dram.latency_max");
  require(a.dram_refresh_ns < a.dram_refresh_interval_ns, "dram.refresh_ns", {"dram.refresh_interval_ns"},
          "must be shorter than dram.refresh_interval_ns");
  require(!a.l2_persistence || a.l2_persist_max_bytes <= a.l2_bytes, "l2.persist_max_bytes", {"l2.size_bytes"},
          "exceeds l2.size_bytes");
  require(a.l2_slices % a.l2_partitions == 0, "l2.partitions", {"l2.slices"}, "must divide l2.slices");
  require(a.l2_launch_lookup_hits <= a.l2_launch_lookups, "l2.launch_lookup_hits", {"l2.launch_lookups"},
          "exceeds l2.launch_lookups");
  // SM i is near digit i of l2.sm_partitions, the digits taken again from the first for SMs past
  // the list (a what-if with more SMs), so any gpu.sms works with the measured map.
  const std::string near = c.get_string("l2.sm_partitions");
  for (std::size_t i = 0; i < near.size(); ++i)
    require(near[i] >= '0' && near[i] - '0' < static_cast<int>(a.l2_partitions), "l2.sm_partitions",
            {"l2.partitions"}, "digit " + std::to_string(i + 1) + " ('" + near[i] + "') is not a partition below l2.partitions");
  a.l2_sm_partition.assign(a.gpu.sms, 0);
  for (std::size_t sm = 0; sm < a.gpu.sms && !near.empty(); ++sm)
    a.l2_sm_partition[sm] = static_cast<std::uint8_t>(near[sm % near.size()] - '0');
  a.config = std::move(c);
  return a;
}

}  // namespace warpsim::models
