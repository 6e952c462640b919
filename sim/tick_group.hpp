#pragma once
// Clocked components of one clock domain that mostly tick on the same edges (a GPU's SMs) share
// one engine event per edge instead of one each. At an edge the members due then tick in the
// order they joined (SM id order), so the order of ticks within an edge does not depend on when
// each member went to sleep.
//
// With a window of W > 1 cycles, an event covers W edges: each member ticks through its due
// edges of the window before the next member starts, so a member's host state stays in the
// host's caches for the whole window, and a listener is told when the window closes. The
// members must not depend on each other within a window, except that a member may wake a
// later one (models/core/gpu.hpp shows how a GPU's SMs keep to that); a member woken by a later
// one ticks right after that one's turn, never before its own last tick. W = 1 is the plain
// case above. The engine's clock then stands at the last edge ticked (Engine::handled_until).
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

// Told when every member has ticked through a window (TickGroup with a window).
class WindowListener {
 public:
  virtual ~WindowListener() = default;
  // The members have ticked every due edge of cycles [begin, end). Wakes asked for now must lie
  // at or after `end`.
  virtual void window_closed(Cycle begin, Cycle end) = 0;
};

class TickGroup final : public EventHandler {
 public:
  static constexpr Cycle kMaxWindow = 1024;  // a window stays well inside the wheel

  // `window`: cycles per event, 1 to kMaxWindow; `listener` (may be null) hears each window close.
  TickGroup(Engine& engine, ClockDomain clock, Cycle window = 1, WindowListener* listener = nullptr);

  // Members are added before the first request; returns the member's index (its tick order).
  std::uint32_t join(ClockedComponent& member);
  // Member `index` wants to tick at `edge` (an edge of the group's clock, not in the past).
  void request(std::uint32_t index, Time edge);
  // While the group ticks cycle `cycle - 1`: member `index` wants the next cycle too.
  void request_next(std::uint32_t index, Cycle cycle) { mark(index, cycle); }

  void on_event(Time now, std::uint64_t payload) override;

  Cycle window() const { return window_; }
  bool ticking() const { return ticking_; }
  Time tick_time() const { return tick_time_; }  // while ticking: the edge being ticked
  // While the group ticks: the window's first cycle and the first cycle after it.
  Cycle window_begin() const { return base_; }
  Cycle window_end() const { return base_ + window_; }

 private:
  static constexpr Cycle kWheelCycles = 4096;  // a power of two, beyond any DRAM round trip
  static constexpr Time kNone = std::numeric_limits<Time>::max();

  std::uint64_t* slot_words(Cycle cycle) { return &wheel_[(cycle & (kWheelCycles - 1)) * words_]; }
  void mark(std::uint32_t index, Cycle cycle);
  void schedule_next(Cycle after);
  void admit_overflow();

  Engine& engine_;
  ClockDomain clock_;
  Cycle window_ = 1;
  WindowListener* listener_ = nullptr;
  std::vector<ClockedComponent*> members_;
  std::size_t words_ = 0;                 // 64-bit words per wheel slot
  std::vector<std::uint64_t> wheel_;      // [cycle % kWheelCycles][words_]
  std::vector<std::uint64_t> occupied_;   // bit per wheel slot: some member asked for it
  std::vector<std::pair<Cycle, std::uint32_t>> overflow_;  // (cycle, member) beyond the wheel
  Cycle overflow_first_ = std::numeric_limits<Cycle>::max();
  Cycle base_ = 0;                        // the wheel covers [base_, base_ + kWheelCycles)
  Time scheduled_ = kNone;                // the group's pending engine event
  bool ticking_ = false;                  // inside on_event: the next edge is chosen at its end
  Time tick_time_ = 0;
  std::vector<std::uint64_t> in_window_;  // members due in the window being ticked
};

}  // namespace warpsim::sim
