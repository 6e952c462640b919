#pragma once
// The dependency graph of a thread block's instructions (Boost.Graph): one vertex per dynamic
// instruction of every warp, read-after-write and write-after-write register edges weighted by
// the producer's latency from the preset, in-order issue edges between consecutive instructions
// of a warp, and barrier edges joining every warp of the block at each __syncthreads (S2.8).
// Its longest path is a lower bound on the block's run time: no schedule can beat it.
#include <cstdint>
#include <string>

#include "models/arch.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::analysis {

struct DependencyAnalysis {
  std::uint64_t instructions = 0;        // vertices that are instructions
  std::uint32_t warps = 0;
  std::uint32_t barriers = 0;            // block-wide barrier rounds
  std::uint64_t critical_path_cycles = 0;  // longest latency-weighted path, issue to last issue + 1
  std::uint64_t critical_path_length = 0;  // instructions on the longest unit-weight dependency chain
  double ilp = 0;                        // instructions / critical_path_length
};

// The latency an edge from `producer` carries: the preset's unit latency for arithmetic; for
// loads the fastest answer the memory system can give for that space (shared-memory latency,
// L1 hit for cached global/local, L2 hit otherwise), so the bound stays a bound.
std::uint64_t minimum_latency(const models::Arch& arch, const traces::Instruction& producer);

// Analyses block `block_id` of the kernel (every warp, streamed once).
DependencyAnalysis analyze_block(const models::Arch& arch, traces::KernelSource& kernel, std::uint64_t block_id);

}  // namespace warpsim::analysis
