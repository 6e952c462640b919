#pragma once
// Simulated time is an integer number of picoseconds, never floating point (Akita's lesson:
// floating-point time rounds differently across runs and machines).
#include <cstdint>

namespace warpsim::sim {

using Time = std::uint64_t;   // picoseconds since the start of the simulation
using Cycle = std::uint64_t;  // edges of one clock domain

inline constexpr Time kPicosPerSecond = 1'000'000'000'000ULL;

// A clock: edges at 0, period, 2*period, ... The period is rounded to a whole picosecond
// (H100's 1.98 GHz gives 505 ps instead of 505.05: 0.01%, far below the model's accuracy).
class ClockDomain {
 public:
  static ClockDomain from_khz(std::uint64_t khz) { return ClockDomain((1'000'000'000ULL + khz / 2) / khz); }
  explicit ClockDomain(Time period_ps) : period_(period_ps == 0 ? 1 : period_ps) {}

  Time period() const { return period_; }
  Cycle cycle_at(Time t) const { return t / period_; }
  Time time_of(Cycle c) const { return c * period_; }
  // The first edge at or after t.
  Time edge_at_or_after(Time t) const { return (t + period_ - 1) / period_ * period_; }

 private:
  Time period_;
};

}  // namespace warpsim::sim
