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
//
// With workers (tick_at_once), the first members tick their windows at the same time on several
// host threads, then the others one after another as above. That needs more of the first
// members: within a window they touch nothing another member touches (each one's own state
// only, and whatever else they report goes to buffers of their own that the listener's
// members_ticked() hands on in member order). Their requests for edges past the window wait in
// a list per member and enter the wheel after them, in member order; the wheel then holds what
// ticking them one after another would have left in it (marks are bits, their order never
// matters), so the windows that follow are the same.
#include <cstdint>
#include <exception>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine.hpp"
#include "sim/time.hpp"
#include "sim/window_workers.hpp"

namespace warpsim::sim {

class ClockedComponent;

// Told when every member has ticked through a window (TickGroup with a window).
class WindowListener {
 public:
  virtual ~WindowListener() = default;
  // The members have ticked every due edge of cycles [begin, end). Wakes asked for now must lie
  // at or after `end`.
  virtual void window_closed(Cycle begin, Cycle end) = 0;
  // With workers: the members that tick at once have ticked through the window, and the others
  // have not started. Runs on the engine's thread.
  virtual void members_ticked(Cycle /*begin*/, Cycle /*end*/) {}
};

class TickGroup final : public EventHandler {
 public:
  static constexpr Cycle kMaxWindow = 1024;  // a window stays well inside the wheel

  // `window`: cycles per event, 1 to kMaxWindow; `listener` (may be null) hears each window close.
  TickGroup(Engine& engine, ClockDomain clock, Cycle window = 1, WindowListener* listener = nullptr);

  // Members are added before the first request; returns the member's index (its tick order).
  std::uint32_t join(ClockedComponent& member);
  // From now on members [0, count) tick each window at the same time on `workers`' threads
  // (nullptr: one after another again). They must keep to what the header says.
  void tick_at_once(std::uint32_t count, WindowWorkers* workers) {
    at_once_ = count;
    workers_ = workers;
  }
  // Member `index` wants to tick at `edge` (an edge of the group's clock, not in the past).
  void request(std::uint32_t index, Time edge);
  // While the group ticks cycle `cycle - 1`: member `index` wants the next cycle too.
  void request_next(std::uint32_t index, Cycle cycle) { mark(index, cycle); }
  // While members tick at once: each one's requests wait in its own list (the header).
  bool deferring() const { return deferring_; }

  void on_event(Time now, std::uint64_t payload) override;

  Cycle window() const { return window_; }
  bool ticking() const { return ticking_; }
  Time tick_time() const { return tick_time_; }  // while ticking: the edge being ticked
  // While the group ticks: the first cycle after the window.
  Cycle window_end() const { return base_ + window_; }

 private:
  static constexpr Cycle kWheelCycles = 4096;  // a power of two, beyond any DRAM round trip
  static constexpr Time kNone = std::numeric_limits<Time>::max();

  std::uint64_t* slot_words(Cycle cycle) { return &wheel_[(cycle & (kWheelCycles - 1)) * words_]; }
  void mark(std::uint32_t index, Cycle cycle);
  // A request for `cycle` into the wheel, or the overflow list when beyond it.
  void place(std::uint32_t index, Cycle cycle);
  // While deferring: member `index` asks for `cycle`; edges inside the window need no mark (the
  // member's own loop follows its next edge), the others wait in its list.
  void defer(std::uint32_t index, Cycle cycle) {
    if (cycle - base_ >= window_) deferred_[index].cycles.push_back(cycle);
  }
  // Ticks members [0, at_once_) due in the window on the workers, takes them out of in_window_,
  // then places their requests; returns the last edge ticked (or 0).
  Time tick_together(Cycle end);
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
  // Ticking members at once (tick_at_once).
  std::uint32_t at_once_ = 0;
  WindowWorkers* workers_ = nullptr;
  bool deferring_ = false;
  struct alignas(64) Deferred {  // a host cache line each: members on different threads write them
    std::vector<Cycle> cycles;
  };
  std::vector<Deferred> deferred_;       // by member
  std::vector<std::uint32_t> due_;       // the window's members that tick at once
  std::vector<Time> last_edge_;          // by position in due_: the last edge it ticked
  std::vector<std::exception_ptr> errors_;  // by position in due_: what its tick threw
};

}  // namespace warpsim::sim
