#pragma once
// The [l2] part of a preset: the GPU's L2, its slices and partitions, the lookups a launch makes
// on its own, write-back and CUDA's persistence controls (S4; l2_cache.hpp,
// persistence_policy.hpp).
#include <cstdint>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models::memory {

struct L2Spec {
  static constexpr const char* kTitle = "L2, its partitions and persistence";

  std::uint64_t size_bytes = 0;
  std::uint32_t line_bytes = 0, sector_bytes = 0, ways = 0, slices = 0;
  std::uint32_t replacement = 0;  // position in ReplacementPolicies (replacement_policies.hpp)
  std::uint32_t hit_latency = 0, bytes_per_cycle_per_slice = 0;
  std::uint32_t partitions = 1, far_latency = 0;
  std::uint64_t clock_khz = 0;
  std::uint32_t lookups_per_cycle = 1;
  double request_cycles = 0;  // L2 cycles each request holds its slice's input from the crossbar
  // l2.sm_partitions: the partition SM i is near is digit i, the digits taken again from the
  // first for SMs past the list (a what-if with more SMs), so any gpu.sms works with the
  // measured map. Empty: every SM is near partition 0.
  std::vector<std::uint8_t> sm_partitions;
  std::uint64_t launch_lookups = 0, launch_lookup_hits = 0;
  std::uint32_t dirty_lines_per_set = 0;  // 0: dirty lines are written back on eviction only
  bool fill_partial_writes = false;       // DRAM ECC: a partial-sector store fetches the sector
  bool fill_partial_write_backs = false;  // DRAM ECC: a sector written back with bytes no store wrote is read first
  bool clean_victims_first = false;       // a set replaces clean lines before dirty ones
  bool persistence = false;
  std::uint64_t persist_max_bytes = 0, max_window_bytes = 0;
  // l2.set_aside_write_back_cycles: entry w is how many cycles more a write-back holds its slice
  // while w ways are set aside for persisting lines (ways past the list take the last entry).
  // Empty: a set-aside costs write-backs nothing.
  std::vector<double> set_aside_write_back_cycles;
  // l2.set_aside_write_back_batch: the slice pays that cost for this many write-backs at once.
  std::uint32_t set_aside_write_back_batch = 1;
  bool slice_pieces = false;  // l2.slice_pieces: a slice's lines of a 4 KB block are {b, b+1, b+4, b+5}

  std::uint32_t partition_near(std::uint32_t sm) const {
    return sm_partitions.empty() ? 0 : sm_partitions[sm % sm_partitions.size()];
  }

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config and refuses values that contradict each other.
  static L2Spec from_config(const sim::Config& config);
};

}  // namespace warpsim::models::memory
