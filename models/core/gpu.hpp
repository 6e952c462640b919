#pragma once
// The simulated GPU: the engine, the GigaThread engine, the SMs and the memory system, wired
// together, and the host that walks a workload's steps (copies and launches) in order.
//
// The SMs tick in windows of several cycles (sim/tick_group.hpp): each SM runs through a whole
// window before the next, so its state stays in the host's caches, and the run's results are
// those of ticking every SM cycle by cycle. That holds because within a window the SMs do not
// depend on each other: what they share goes through the memory system, whose answers take at
// least the window's length (MemorySystem::min_latency), so each SM's accesses to it wait in the
// access log and go in cycle-by-cycle order when the window closes (access_log.hpp); a block
// dispatched inside a window starts after it (block_start_latency_cycles >= the window); a
// retired block's resources are released by the GigaThread engine, which ticks after the SMs.
//
// For the same reason the SMs of a window may tick at the same time on several host threads
// (`threads` > 1): each has its own access log, and what else an SM hands to others during a
// window -- blocks it retires, timeline records, shared-memory and constant counts -- waits in
// buffers of its own (sm_side_buffers.hpp, MemorySystem::count_sm_accesses_later) that
// members_ticked() hands on SM by SM in id order before the GigaThread engine ticks. The results
// are the same for any number of threads.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/core/access_log.hpp"
#include "models/core/gigathread.hpp"
#include "models/core/sm.hpp"
#include "models/core/sm_side_buffers.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/engine.hpp"
#include "sim/stats.hpp"
#include "sim/window_workers.hpp"
#include "sim/zero_pages.hpp"
#include "traces/workload.hpp"

namespace warpsim::models {

struct GpuTotals {
  sim::Cycle cycles = 0;
  std::uint64_t warp_instructions = 0, active_lanes = 0, issue_events = 0, dual_issues = 0;
  std::uint64_t warp_cycles = 0, active_cycles = 0;
  std::uint64_t state_cycles[kSchedulerStateCount] = {};
  std::uint64_t scheduler_cycles = 0;  // all scheduler-cycles of the run
  std::uint64_t pipe_slots[traces::kUnitCount] = {};  // SmCounters::pipe_slots, summed
};

// One launch's share of a run (Gpu::launch_totals). The counts that belong to an instruction or
// an access (instructions, lanes, issues, warp-cycles, every MemoryCounters count) are split
// exactly among launches that run at once. The SMs' cycle books (active cycles, stall states)
// belong to the GPU, not to a launch: they are a launch's own only when it ran alone.
struct LaunchTotals {
  GpuTotals gpu;  // cycles: its own duration, start to end
  MemoryCounters memory;
  sim::Cycle start = 0;
  bool alone = true;  // no other launch was on the GPU at any time during it: gpu's cycle books are its own
};

// How the host issues a workload's launches (run --ncu).
struct LaunchPolicy {
  // Nsight Compute's replay: each launch waits until the GPU is idle, so every launch runs alone.
  bool serialize = false;
  // ... and before each launch every cache is written back and invalidated (--cache-control all).
  bool flush_caches = false;
};

// Told of every launch as it starts (the sampler, models/sampling/).
class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;
  // Kernel slot `slot` has just been handed to the GigaThread engine.
  virtual void launched(std::uint32_t slot) = 0;
};

class Gpu final : public sim::WindowListener {
 public:
  // The whole GPU, so it takes the whole Arch: it builds each component from that component's
  // spec (arch.hpp). The memory system is given from outside so unit tests can pass a
  // fixed-latency stand-in.
  // `lockstep`: every SM ticks cycle by cycle instead of in windows; slower, same results.
  // `threads`: host threads that tick the SMs of a window (1: this one alone, no thread pool);
  // the others join after `threads_join_after` of host time (sim/window_workers.hpp).
  Gpu(const Arch& arch, MemorySystem& memory, sim::StatsRegistry& stats, bool lockstep = false, int threads = 1,
      std::chrono::milliseconds threads_join_after = std::chrono::milliseconds{0});

  // Runs every step of the workload to completion. Copies wait for running kernels
  // (cudaMemcpy is synchronous); a launch waits for the previous launch of its stream;
  // launches on different streams overlap.
  void run(traces::Workload& workload, const LaunchPolicy& policy = {});
  // Runs one kernel to completion (a workload of one launch).
  void run(std::unique_ptr<traces::KernelSource> kernel, const LaunchPolicy& policy = {});
  // The launches in the order they started (kernel slots 0, 1, ...), after run().
  std::uint32_t launch_count() const { return static_cast<std::uint32_t>(gigathread_->kernel_count()); }
  LaunchTotals launch_totals(std::uint32_t slot) const;

  // Closes the books (stall states, occupancy) at the end of the last kernel and sums the SMs.
  GpuTotals totals();
  const GigaThread& gigathread() const { return *gigathread_; }
  GigaThread& gigathread() { return *gigathread_; }
  // Sampled simulation: `observer` hears of every launch (nullptr: none does).
  void observe_launches(LaunchObserver* observer) { launch_observer_ = observer; }
  // Launch `slot`'s totals so far, read at cycle `at` while it runs alone: launch_totals() with
  // the GPU's cycle books closed at `at` and its resident warps' cycles counted up to `at`.
  LaunchTotals running_totals(std::uint32_t slot, sim::Cycle at);
  // What the sources found while running (unknown opcodes ...) and what their launches were told
  // (a set-aside clamped ...), each once.
  std::vector<std::string> warnings() const;
  sim::Engine& engine() { return engine_; }
  // Every SM records its warps' starts and exits into `timeline` (run --timeline).
  void record_timeline(WarpTimeline* timeline);
  // The memory system answers the window's accesses, then the SMs settle what waited on them.
  void window_closed(sim::Cycle begin, sim::Cycle end) override;
  // With threads: what the SMs held back during the window goes on, SM by SM.
  void members_ticked(sim::Cycle begin, sim::Cycle end) override;

 private:
  // The SMs' cycle books, summed: active cycles and scheduler states, closed at `at`.
  struct CycleBooks {
    std::uint64_t active_cycles = 0;
    std::uint64_t state_cycles[kSchedulerStateCount] = {};
  };
  // Where each launch's cycle books start and end (launch_totals).
  struct LaunchBooks {
    bool alone = true;
    bool closed = false;  // `at_end` taken (it ended, alone)
    CycleBooks at_start, at_end;
  };

  void launch(std::unique_ptr<traces::KernelSource> kernel, const LaunchPolicy& policy);
  // Runs until every launch has finished, then closes the books of those that ran alone.
  void drain();
  CycleBooks cycle_books(sim::Cycle at);

  const Arch& arch_;
  MemorySystem& memory_;
  sim::Engine engine_;
  sim::ClockDomain clock_;
  std::vector<AccessLog> logs_;  // by SM
  sim::TickGroup sm_ticks_;  // declared before the SMs and the GigaThread engine that tick through it
  std::vector<DeferredAccess*> in_order_;  // the window's accesses, for looking ahead
  std::vector<std::size_t> cycle_starts_;  // scratch of put_in_order
  std::unique_ptr<sim::WindowWorkers> workers_;  // with threads > 1
  std::vector<SmSideBuffers> side_;  // by SM, with threads > 1
  WarpTimeline* timeline_ = nullptr;
  sim::ZeroPagesArena warp_slots_arena_;  // every SM's warp slots (warp_slots.hpp): before the SMs
  std::vector<std::unique_ptr<Sm>> sms_;
  std::unique_ptr<GigaThread> gigathread_;
  static std::vector<std::string> merged(std::vector<std::string> into, const std::vector<std::string>& more);
  std::vector<std::string> launch_warnings_;
  std::vector<LaunchBooks> books_;  // by kernel slot
  LaunchObserver* launch_observer_ = nullptr;
};

}  // namespace warpsim::models
