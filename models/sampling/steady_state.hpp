#pragma once
// When a kernel has reached steady state (sampled simulation, docs/sampling.md). It is measured
// over windows of one wave each (as many blocks as the GPU holds at once), from the time its
// caches are warm (wave_measure.hpp) on. Steady state is declared when, over all those windows:
// - drift: the first half's blocks per cycle and IPC agree with the second half's within `drift`;
// - precision: the mean blocks per cycle is known within `precision` (two standard errors).
// The standard error comes from batches of `batch` windows (batch means): a wave's time
// alternates with the next one's by several % on some kernels, and pairs of waves average that
// out where single waves would overstate the error.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace warpsim::models::sampling {

// The stated bound.
struct SteadyRule {
  std::uint32_t min_windows = 8;  // one-wave windows observed at least
  double drift = 0.01;            // halves' blocks per cycle and IPC within this fraction
  double precision = 0.03;        // two standard errors of the mean rate, as a fraction of it
  std::uint32_t batch = 2;        // windows per batch for the standard error
};

// One window: from one wave-boundary retirement to the next.
struct Window {
  sim::Cycle cycles = 0;
  std::uint64_t blocks = 0;
  std::uint64_t instructions = 0;  // warp instructions issued in it, GPU-wide
};

class SteadyState {
 public:
  explicit SteadyState(SteadyRule rule = {}) : rule_(rule) {}

  void add(const Window& w) { windows_.push_back(w); }
  bool steady() const;
  std::size_t windows() const { return windows_.size(); }
  // Over every window: blocks per cycle, and its standard error as a fraction of it.
  double rate() const;
  double rate_error() const;
  // For a message: how far from steady state it is, against the bounds.
  std::string describe() const;
  const SteadyRule& rule() const { return rule_; }

 private:
  // |first half / second half - 1| of blocks per cycle (ipc false) or instructions per cycle.
  double drift(bool ipc) const;

  SteadyRule rule_;
  std::vector<Window> windows_;
};

}  // namespace warpsim::models::sampling
