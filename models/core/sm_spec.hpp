#pragma once
// The [sm] part of a preset: what one SM holds at once (S1.1, with CUDA's allocation
// granularities, occupancy.hpp) and how its warp schedulers issue (S1.4, S2.3-S2.6; sm.hpp).
// Its execution units are units_spec.hpp.
#include <cstdint>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models {

struct SmSpec {
  static constexpr const char* kTitle = "SM: residency limits and warp schedulers";
  // What the SM model is built for (sm.hpp): a scheduler's warps are bits of one 64-bit mask, and
  // the SM keeps one such mask per scheduler in a fixed array.
  static constexpr std::uint32_t kMaxSchedulers = 16;
  static constexpr std::uint32_t kMaxWarpsPerScheduler = 64;

  // Residency limits per SM (S1.1) and CUDA's allocation granularities.
  std::uint32_t max_threads = 0, max_warps = 0, max_blocks = 0;
  std::uint32_t max_threads_per_block = 0;
  std::uint32_t registers = 0, max_registers_per_thread = 0, register_alloc_unit = 0;
  std::uint32_t register_block_warp_granularity = 1;
  std::uint32_t shared_bytes = 0, max_shared_per_block = 0, shared_alloc_unit = 0;
  std::uint32_t shared_reserved_per_block = 0;

  // Issue (S1.4, S2.3-S2.6).
  std::uint32_t schedulers = 0, dispatch_per_scheduler = 0, max_warps_per_scheduler = 0;
  std::uint32_t scheduler_policy = 0;  // its position in IssuePolicies (issue_policies.hpp)
  bool fp64_blocks_dual_issue = false;  // S2.4: the source author's belief, on for Kepler
  bool units_per_scheduler = false;     // Hopper: each sub-partition owns its units

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config and refuses limits that contradict each other or that the
  // SM model does not support.
  static SmSpec from_config(const sim::Config& config);
};

}  // namespace warpsim::models
