#pragma once
// Clocked components of one clock domain that mostly tick on the same edges (a GPU's SMs) share
// one engine event per edge instead of one each. At an edge the members due then tick in the
// order they joined (SM id order), so the order of ticks within an edge does not depend on when
// each member went to sleep.
//
// Requests live in a wheel over the next kWheelCycles cycles: a bit per member per cycle, and a
// bit per cycle saying whether any member wants it, so the next edge with work is a short scan.
// Requests further ahead (rare: a block that starts long after dispatch) wait in an overflow
// list and enter the wheel when it comes within reach. A member woken again earlier leaves its
// old bit behind; it is skipped when reached (ClockedComponent ignores stale ticks). Before a
// member ticks, the next member due at that edge is asked to prefetch (ClockedComponent::prefetch).
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine.hpp"
#include "sim/time.hpp"

namespace warpsim::sim {

class ClockedComponent;

class TickGroup final : public EventHandler {
 public:
  TickGroup(Engine& engine, ClockDomain clock);

  // Members are added before the first request; returns the member's index (its tick order).
  std::uint32_t join(ClockedComponent& member);
  // Member `index` wants to tick at `edge` (an edge of the group's clock, not in the past).
  void request(std::uint32_t index, Time edge);
  // While the group ticks cycle `cycle - 1`: member `index` wants the next cycle too.
  void request_next(std::uint32_t index, Cycle cycle) { mark(index, cycle); }

  void on_event(Time now, std::uint64_t payload) override;

 private:
  static constexpr Cycle kWheelCycles = 4096;  // a power of two, beyond any DRAM round trip
  static constexpr Time kNone = std::numeric_limits<Time>::max();

  std::uint64_t* slot_words(Cycle cycle) { return &wheel_[(cycle & (kWheelCycles - 1)) * words_]; }
  void mark(std::uint32_t index, Cycle cycle);
  void schedule_next(Cycle after);
  void admit_overflow();

  Engine& engine_;
  ClockDomain clock_;
  std::vector<ClockedComponent*> members_;
  std::size_t words_ = 0;                 // 64-bit words per wheel slot
  std::vector<std::uint64_t> wheel_;      // [cycle % kWheelCycles][words_]
  std::vector<std::uint64_t> occupied_;   // bit per wheel slot: some member asked for it
  std::vector<std::pair<Cycle, std::uint32_t>> overflow_;  // (cycle, member) beyond the wheel
  Cycle overflow_first_ = std::numeric_limits<Cycle>::max();
  Cycle base_ = 0;                        // the wheel covers [base_, base_ + kWheelCycles)
  Time scheduled_ = kNone;                // the group's pending engine event
  bool ticking_ = false;                  // inside on_event: the next edge is chosen at its end
  bool same_edge_request_ = false;        // a member asked for the edge being ticked: re-read it
};

}  // namespace warpsim::sim
