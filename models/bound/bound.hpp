#pragma once
// A launch's bound (utilisation, theoretical occupancy, verdict) from its totals, and a run's
// from its launches': what simulate() attaches to every result.
#include <cstdint>
#include <vector>

#include "models/bound/limiter.hpp"
#include "models/bound/utilization.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::models {

// What the grid and the occupancy calculator say about a launch.
struct LaunchShape {
  Occupancy theoretical;
  std::uint64_t blocks = 0;
  std::uint64_t start_cycles = 0;  // from the kernel's start to its first block
};
LaunchShape launch_shape(const Arch& arch, const traces::KernelInfo& kernel, std::uint64_t start_cycles);

struct Bound {
  Utilization use;
  Occupancy theoretical;
  double waves = 0;
  Verdict verdict;
};

// `cycle_books`: the SMs' stall states and active cycles in `t` are the launch's own (it ran
// alone); otherwise the verdict does without them.
Bound launch_bound(const Arch& arch, const GpuTotals& t, const MemoryCounters& m, const LaunchShape& shape,
                   bool cycle_books = true);

// A run's: its own utilisation over the whole run; for one launch that launch's verdict, for
// several the limiter of the launches that took most of the time, with the longest launch's
// occupancy. `launch_cycles[k]` is launch k's duration.
Bound run_bound(const Arch& arch, const GpuTotals& t, const MemoryCounters& m, const std::vector<Bound>& launches,
                const std::vector<std::uint64_t>& launch_cycles);

}  // namespace warpsim::models
