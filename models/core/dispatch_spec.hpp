#pragma once
// The [dispatch] part of a preset: the GigaThread engine's timing (gigathread.hpp) and the SM's
// side of a block's start and end (sm_blocks.cpp): when blocks go out, start and are taken back.
#include <cstdint>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models {

struct DispatchSpec {
  static constexpr const char* kTitle = "dispatch: the GigaThread engine and block start and retirement";

  std::uint64_t launch_overhead_ns = 0;  // host side, outside the kernel's GPU time (not simulated)
  std::uint64_t kernel_start_ns = 0;     // GPU side: a kernel's start to its first block dispatch
  std::uint32_t block_interval_cycles = 1;  // GPU-wide: one block per this many cycles
  std::uint32_t block_start_latency_cycles = 0;
  std::uint32_t warp_launch_interval_cycles = 0;
  std::uint32_t block_retire_cycles = 0;               // last warp exit -> block reported done
  bool block_waits_for_stores = true;      // ... and not before its memory operations complete
  bool warps_counted_to_block_end = true;  // achieved occupancy's count of a warp (off: own exit)
  std::uint32_t first_wave_block_interval_cycles = 0;  // 0: no separate first wave
  std::uint32_t first_wave_sm_interval_cycles = 0;
  double retire_interval_cycles = 0;  // 0: finished blocks are taken in at once

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config.
  static DispatchSpec from_config(const sim::Config& config);
};

}  // namespace warpsim::models
