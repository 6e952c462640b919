#pragma once
// How many blocks of a kernel fit on one SM, and which resource stops the next one (S1.1), with
// CUDA's allocation granularities as the CUDA Occupancy Calculator applies them.
#include <cstdint>
#include <string>
#include <string_view>

#include "models/core/sm_spec.hpp"

namespace warpsim::models {

enum class OccupancyLimit { Threads, Warps, Blocks, Registers, SharedMemory };
std::string_view limit_name(OccupancyLimit l);

struct BlockResources {
  std::uint32_t threads = 0;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t shared_bytes = 0;  // static + dynamic, before the system reservation
};

struct Occupancy {
  std::uint32_t blocks_per_sm = 0;
  std::uint32_t warps_per_block = 0;
  std::uint32_t warps_per_sm = 0;
  OccupancyLimit limit = OccupancyLimit::Blocks;
  double fraction() const;  // resident warps / the SM's maximum, set by compute_occupancy
  std::uint32_t max_warps_per_sm = 0;
};

// What one resident block takes from its SM, rounded as CUDA allocates it. The GigaThread
// engine admits a block when every used + footprint stays within the SM's limits, which gives
// the same count as compute_occupancy for a single kernel and extends to concurrent kernels.
struct BlockFootprint {
  std::uint32_t threads = 0, warps = 0, registers = 0, shared_bytes = 0;
};
BlockFootprint block_footprint(const SmSpec& sm, const BlockResources& block);

// Throws sim::InputError when one block cannot run at all (too many threads, registers or
// shared bytes), naming the resource, the limit and the preset (`preset`, Arch::preset).
Occupancy compute_occupancy(const SmSpec& sm, const BlockResources& block, const std::string& preset);

}  // namespace warpsim::models
