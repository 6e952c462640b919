#pragma once
// A component driven by a clock. Each tick reports whether it made progress; a tick without
// progress puts the component to sleep, and it costs nothing until it is woken: by wake() from
// whoever changes its situation (a message arrives, a slot frees up), or by wake_at() when it
// knows the cycle at which it will have work again (a scoreboard entry that becomes ready).
// Akita's "smart ticking".
#include <limits>

#include "sim/component.hpp"
#include "sim/engine.hpp"
#include "sim/tick_group.hpp"
#include "sim/time.hpp"

namespace warpsim::sim {

class ClockedComponent : public Component, public EventHandler {
  friend class TickGroup;  // calls group_tick

 public:
  ClockedComponent(Engine& engine, ClockDomain clock, std::string path)
      : Component(std::move(path)), engine_(engine), clock_(clock) {}
  // Ticks through `group` (same clock) instead of events of its own.
  ClockedComponent(Engine& engine, TickGroup& group, ClockDomain clock, std::string path)
      : Component(std::move(path)), engine_(engine), clock_(clock), group_(&group), group_index_(group.join(*this)) {}

  // From now on ticks through `group` (same clock), after the members that joined before. For a
  // component that must tick after others built later than itself (the GigaThread engine after
  // the SMs that report to it); call it before the first wake.
  void tick_through(TickGroup& group) {
    group_ = &group;
    group_index_ = group.join(*this);
  }

  // Ticks at the next edge that has not been ticked yet.
  void wake() { wake_at_time(now()); }
  // Ticks at cycle `cycle` (or the next untaken edge after it), unless a tick comes sooner.
  void wake_at(Cycle cycle) { wake_at_time(clock_.time_of(cycle)); }

  bool asleep() const { return scheduled_ == kNone; }
  // Called by a TickGroup just before it ticks the member due before this one: start loading the
  // host memory the coming tick reads, so its cache misses overlap the other member's work.
  virtual void prefetch() const {}
  const ClockDomain& clock() const { return clock_; }
  Engine& engine() const { return engine_; }
  std::uint64_t ticks() const { return ticks_; }
  Cycle now_cycle() const { return clock_.cycle_at(now()); }

 protected:
  // One clock edge. Return true if anything changed: the component then ticks again next edge.
  // Return false to sleep (possibly after calling wake_at for a known future cycle).
  virtual bool tick(Cycle cycle) = 0;

 private:
  static constexpr Time kNone = std::numeric_limits<Time>::max();
  static constexpr Cycle kNoCycle = std::numeric_limits<Cycle>::max();

  // The present: the edge being ticked if a tick group is ticking (its window runs members
  // ahead of the engine's clock), else the engine's time.
  // While members of the group tick at once (TickGroup::tick_at_once), each one's present is the
  // edge it ticks, which begin_tick recorded.
  Time now() const {
    if (group_ == nullptr || !group_->ticking()) return engine_.now();
    return group_->deferring() ? last_tick_ : group_->tick_time();
  }

  void wake_at_time(Time t) {
    Time edge = clock_.edge_at_or_after(std::max(t, now()));
    if (ticked_once_ && edge <= last_tick_) edge = last_tick_ + clock_.period();
    if (scheduled_ <= edge) return;  // a tick at or before that edge is already coming
    // A later tick may still be queued; it becomes stale and is ignored when it fires.
    scheduled_ = edge;
    scheduled_cycle_ = clock_.cycle_at(edge);
    if (group_ != nullptr)
      group_->request(group_index_, edge);
    else
      engine_.schedule(edge, *this, 0);
  }

  // A tick is due at `now` unless a later wake superseded it; records that it happens.
  bool begin_tick(Time now) {
    if (now != scheduled_) return false;  // stale: superseded by an earlier wake
    scheduled_ = kNone;
    scheduled_cycle_ = kNoCycle;
    ticked_once_ = true;
    last_tick_ = now;
    ++ticks_;
    return true;
  }

  void on_event(Time now, std::uint64_t) final {
    if (!begin_tick(now)) return;
    if (tick(clock_.cycle_at(now))) {
      engine_.note_progress();
      wake();
    }
  }

  // The group's tick at edge `now` = cycle `cycle`: on_event without converting between times
  // and cycles (a GPU's SMs tick about a million times per simulated millisecond).
  void group_tick(Time now, Cycle cycle) {
    if (!begin_tick(now)) return;
    if (tick(cycle)) {
      engine_.note_progress();
      const Time next = now + clock_.period();  // wake(), knowing the next edge is the next cycle
      if (scheduled_ <= next) return;
      scheduled_ = next;
      scheduled_cycle_ = cycle + 1;
      group_->request_next(group_index_, cycle + 1);
    }
  }

  Engine& engine_;
  ClockDomain clock_;
  TickGroup* group_ = nullptr;
  std::uint32_t group_index_ = 0;
  Time last_tick_ = 0;
  Time scheduled_ = kNone;
  Cycle scheduled_cycle_ = kNoCycle;  // the same edge as a cycle: what a TickGroup's window loop follows
  std::uint64_t ticks_ = 0;
  bool ticked_once_ = false;
};

}  // namespace warpsim::sim
