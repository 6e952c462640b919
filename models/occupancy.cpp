#include "models/occupancy.hpp"

#include <algorithm>
#include <limits>

#include "sim/errors.hpp"

namespace warpsim::models {
namespace {
std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) { return unit ? (v + unit - 1) / unit * unit : v; }
}  // namespace

std::string_view limit_name(OccupancyLimit l) {
  switch (l) {
    case OccupancyLimit::Threads: return "threads";
    case OccupancyLimit::Warps: return "warps";
    case OccupancyLimit::Blocks: return "blocks";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared_memory";
  }
  return "?";
}

double Occupancy::fraction() const {
  return max_warps_per_sm ? static_cast<double>(warps_per_sm) / max_warps_per_sm : 0.0;
}

BlockFootprint block_footprint(const SmSpec& sm, const BlockResources& b) {
  BlockFootprint f;
  f.threads = b.threads;
  f.warps = (b.threads + 31) / 32;
  std::uint64_t per_warp = round_up(std::uint64_t(b.registers_per_thread) * 32, sm.register_alloc_unit);
  f.registers = static_cast<std::uint32_t>(round_up(f.warps, sm.register_block_warp_granularity) * per_warp);
  std::uint64_t shared = b.shared_bytes + sm.shared_reserved_per_block;
  f.shared_bytes = shared ? static_cast<std::uint32_t>(round_up(shared, sm.shared_alloc_unit)) : 0;
  return f;
}

Occupancy compute_occupancy(const SmSpec& sm, const BlockResources& b, const std::string& preset) {
  auto fail = [&](const std::string& what) { throw sim::InputError("block", what); };
  if (b.threads == 0) fail("a block needs at least one thread");
  if (b.threads > sm.max_threads_per_block)
    fail(std::to_string(b.threads) + " threads per block exceeds " + preset + "'s limit of " +
         std::to_string(sm.max_threads_per_block));
  if (b.registers_per_thread > sm.max_registers_per_thread)
    fail(std::to_string(b.registers_per_thread) + " registers per thread exceeds " + preset + "'s limit of " +
         std::to_string(sm.max_registers_per_thread));
  if (b.shared_bytes > sm.max_shared_per_block)
    fail(std::to_string(b.shared_bytes) + " shared bytes per block exceeds " + preset + "'s limit of " +
         std::to_string(sm.max_shared_per_block));

  Occupancy occ;
  occ.max_warps_per_sm = sm.max_warps;
  occ.warps_per_block = (b.threads + 31) / 32;  // S1.3: partial warps still take a whole warp
  constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

  // Candidates in the order ties are reported: the first resource that reaches the minimum wins.
  struct Candidate {
    OccupancyLimit limit;
    std::uint64_t blocks;
  };
  std::uint64_t by_threads = sm.max_threads / b.threads;
  std::uint64_t by_warps = sm.max_warps / occ.warps_per_block;
  std::uint64_t by_blocks = sm.max_blocks;
  const BlockFootprint f = block_footprint(sm, b);
  std::uint64_t by_registers = f.registers ? sm.registers / f.registers : kUnlimited;
  std::uint64_t by_shared = f.shared_bytes ? sm.shared_bytes / f.shared_bytes : kUnlimited;

  const Candidate candidates[] = {{OccupancyLimit::Blocks, by_blocks},
                                  {OccupancyLimit::Threads, by_threads},
                                  {OccupancyLimit::Warps, by_warps},
                                  {OccupancyLimit::Registers, by_registers},
                                  {OccupancyLimit::SharedMemory, by_shared}};
  const Candidate* best = &candidates[0];
  for (const auto& c : candidates)
    if (c.blocks < best->blocks) best = &c;
  if (best->blocks == 0)
    fail("one block needs more " + std::string(limit_name(best->limit)) + " than an SM of " + preset + " has");
  occ.blocks_per_sm = static_cast<std::uint32_t>(best->blocks);
  occ.limit = best->limit;
  occ.warps_per_sm = occ.blocks_per_sm * occ.warps_per_block;
  return occ;
}

}  // namespace warpsim::models
