#pragma once
// What a thread block's instruction streams say about it without timing it: the counts that
// depend on its instructions alone (instructions, active lanes, and the requests, sectors,
// transactions, bytes, bank conflicts and replays of its memory instructions), and its
// basic-block vector. Sampled simulation takes these from the streams of the blocks it does not
// simulate in detail, so they stay exact, and compares them to tell whether blocks are alike.
#include <cstdint>
#include <memory>

#include "models/arch.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/stats.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::models::sampling {

// std::uint64_t fields only (sim::add_counts).
struct StreamCounts {
  std::uint64_t warps = 0;
  std::uint64_t instructions = 0, active_lanes = 0;
  // The basic-block vector (executions per pc) in one number: the sum over instructions of a
  // 64-bit hash of their pc. Equal vectors give equal sums; unequal ones collide with odds of
  // about 2^-64.
  std::uint64_t pc_mix = 0;
  MemoryCounters memory;  // only the fields exact_memory_counts() keeps
};
bool operator==(const StreamCounts& a, const StreamCounts& b);

// The memory counters that follow from a memory instruction's addresses alone (requests,
// sectors, transactions, bytes requested and moved, shared requests and bank conflicts,
// replays); the others (cache hits and lookups, DRAM bytes) depend on the caches' state.
MemoryCounters exact_memory_counts(const MemoryCounters& all);

// A whole launch walked: its blocks' counts summed, and a mix of each block's counts with its id,
// so that two launches compare equal only when each block matches.
struct LaunchStreams {
  StreamCounts total;
  std::uint64_t blocks_mix = 0;
  bool operator==(const LaunchStreams&) const = default;
};

class BlockWalker {
 public:
  // The counts come from a memory system of its own (one SM, a one-set L2), so that the walk
  // changes nothing in the simulated one.
  BlockWalker(const Arch& arch, std::uint64_t seed);
  // The blocks walked from now on belong to the launch `info` (its L2 policy).
  void begin_launch(const traces::KernelInfo& info);
  // Pulls every instruction of every warp of block `id` from `source` (open_block's rules: a
  // trace is read forward). Throws what the source throws for a bad trace.
  StreamCounts walk(traces::KernelSource& source, std::uint64_t id);
  // Every block of `source` (those a trace holds), in id order.
  LaunchStreams walk_launch(traces::KernelSource& source);

 private:
  sim::StatsRegistry stats_;
  std::unique_ptr<MemorySystem> memory_;
  traces::Instruction inst_;
  sim::Cycle now_ = 0;
  std::uint32_t slot_ = 0;  // the scratch memory system's kernel slot of the current launch
};

}  // namespace warpsim::models::sampling
