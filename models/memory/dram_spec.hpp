#pragma once
// The [dram] part of a preset: which DRAM model runs (dram_models.hpp) and the numbers it runs on
// (banked_dram.hpp): bandwidth, unloaded latency, channels and banks, refresh and what it holds,
// what a 256-byte unit costs to turn to, write turnaround (a share of every write, or a turn of the
// bus when it changes direction with the writes queued behind the reads) and whether writes drain
// while the reads leave the bus idle.
#include <cstdint>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models::memory {

struct DramSpec {
  static constexpr const char* kTitle = "DRAM";

  std::uint32_t model = 0;  // its position in DramModels (dram_models.hpp)
  std::uint32_t bus_width_bits = 0, data_rate_mtps = 0;
  std::uint32_t latency_min = 0, latency_max = 0, channels = 0, banks = 0;
  std::uint32_t refresh_interval_ns = 0, refresh_ns = 0, refresh_groups = 1, turnaround_ns = 0, write_batch = 1;
  bool writes_in_refresh = false;
  bool refresh_holds_bus = true;
  std::uint32_t unit_turn_ps = 0;
  std::uint32_t write_queue = 0;

  double bytes_per_second() const { return bus_width_bits / 8.0 * data_rate_mtps * 1e6; }

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config and refuses timings that contradict each other.
  static DramSpec from_config(const sim::Config& config);
};

}  // namespace warpsim::models::memory
