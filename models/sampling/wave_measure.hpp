#pragma once
// One launch measured wave by wave while it runs in detail: a reading of its totals each time
// another wave's worth of its blocks has retired; whether the caches are warm yet; whether the
// windows since show steady state (steady_state.hpp); and what the blocks it then skips are
// worth at the steady windows' rates.
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/gpu.hpp"
#include "models/memory/l2_spec.hpp"
#include "models/sampling/steady_state.hpp"

namespace warpsim::models::sampling {

// When the caches count as warm: what they carry from block to block has stopped growing. The
// L2 is the cache that takes long to fill (50 MB on an H100: a streaming kernel needs 15-25
// waves to turn it over), and while it fills, blocks run faster than they will once it is full,
// so steady windows before that would credit skipped blocks too little time. Warm is the first
// window, from `min_waves` on, in which any of these holds:
// - turned over: the launch has brought at least the L2's size into it (sector misses);
// - resident: the window missed nothing in L2 (what it uses stays there);
// - draining: the window wrote back to DRAM at least `drain_share` of the bytes it stored, so
//   dirty data leaves the L2 as fast as it comes (the dirty-line limit, or a full L2, reached).
// ... and, in that window or one before it, the blocks have fallen out of the launch's lockstep:
// a launch starts every SM's blocks at once, and they keep starting, and so retiring, in bursts
// for waves after (a K20X readOffsetUnroll: a wave's 56 blocks start within 110 cycles of each
// other in the first wave, 1,270 in the fourth, the whole wave's 5,300 from the 15th on), while
// blocks that start together wait for DRAM together and run 3% slower. Out of step: the shortest
// stretch of the window that holds half its retirements is at least `spread_share` of the
// window (retirements spread evenly over it give one half). A window of fewer than
// `spread_min_blocks` retirements cannot tell and counts as out of step.
// The windows that count toward steady state start `settle_waves` after the warm one: DRAM's
// write queues fill for a wave or two after write-backs begin.
struct WarmRule {
  std::uint32_t min_waves = 2;
  double drain_share = 0.9;
  double spread_share = 0.25;
  std::uint32_t spread_min_blocks = 8;
  std::uint32_t settle_waves = 1;
};

// The shortest stretch holding half of `cycles` (retirement cycles, in order), as a share of
// `window` cycles; 0.5 when there are too few to tell (fewer than `min_blocks`).
double half_spread(const std::vector<sim::Cycle>& cycles, sim::Cycle window, std::uint32_t min_blocks);

// What skipping blocks credits, extrapolated from the steady windows.
struct Credit {
  sim::Cycle cycles = 0;
  double error_cycles = 0;
  // As the steady windows ran that many blocks: every count of the totals. The caller replaces
  // those that follow from the instruction streams by the walked ones.
  GpuTotals gpu;
  MemoryCounters memory;
};

class WaveMeasure {
 public:
  WaveMeasure(const memory::L2Spec& l2, std::uint64_t wave_blocks, WarmRule warm, SteadyRule steady);

  // The count of retired blocks at which the next reading is due.
  std::uint64_t next_boundary() const { return next_boundary_; }
  // The launch has retired `retired` blocks by `now` (told at every retirement, readings or not).
  void retired(std::uint64_t retired, sim::Cycle now) {
    if (!warm_ && !out_of_step_) retire_cycles_.insert(retire_cycles_.end(), retired - retired_told_, now);
    retired_told_ = retired;
  }
  // A reading of the launch's totals with `retired` of its blocks retired (at or past
  // next_boundary()), at cycle `at`. The first is taken when the launch starts.
  void add(const LaunchTotals& totals, std::uint64_t retired, sim::Cycle at);
  // Blocks were skipped: measuring starts over from this reading, with the caches still warm
  // (a settling wave first: the blocks in flight meet those after the skip).
  void restart(const LaunchTotals& totals, std::uint64_t retired, sim::Cycle at);
  bool warm() const { return warm_; }
  bool steady() const { return warm_ && steady_.steady(); }
  // For a message: why it is not steady (yet).
  std::string describe() const;
  // What `blocks` more blocks like the steady windows' take: cycles at their rate, counts at
  // their rate per block. The error: twice the rate's standard error, plus a wave's time for the
  // seam (docs/sampling.md).
  Credit credit(std::uint64_t blocks) const;

 private:
  struct Reading {
    LaunchTotals totals;
    std::uint64_t retired = 0;
  };
  bool warm_after(const Reading& before, const Reading& now) const;

  std::uint64_t wave_, l2_bytes_, sector_bytes_;
  std::uint64_t next_boundary_ = 0;
  WarmRule warm_rule_;
  SteadyRule steady_rule_;
  SteadyState steady_;
  std::vector<Reading> readings_;
  bool warm_ = false;
  bool out_of_step_ = false;  // the blocks have left the launch's lockstep (WarmRule)
  std::vector<sim::Cycle> retire_cycles_;  // the current window's retirements, until out of step
  sim::Cycle last_reading_cycle_ = 0;
  std::uint64_t retired_told_ = 0;  // the blocks retired() last counted
  std::size_t warm_reading_ = 0;  // the reading that found the caches warm
};

}  // namespace warpsim::models::sampling
