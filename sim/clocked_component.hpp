#pragma once
// A component driven by a clock. Each tick reports whether it made progress; a tick without
// progress puts the component to sleep, and it costs nothing until wake() is called by whoever
// changes its situation (a message arrives, a slot frees up). Akita's "smart ticking".
#include "sim/component.hpp"
#include "sim/engine.hpp"
#include "sim/time.hpp"

namespace warpsim::sim {

class ClockedComponent : public Component, public EventHandler {
 public:
  ClockedComponent(Engine& engine, ClockDomain clock, std::string path)
      : Component(std::move(path)), engine_(engine), clock_(clock) {}

  // Schedules a tick at the next edge that has not been ticked yet, unless one is scheduled.
  void wake() {
    if (tick_scheduled_) return;
    Time edge = clock_.edge_at_or_after(engine_.now());
    if (ticked_once_ && edge <= last_tick_) edge = last_tick_ + clock_.period();
    tick_scheduled_ = true;
    engine_.schedule(edge, *this, 0);
  }
  bool asleep() const { return !tick_scheduled_; }
  const ClockDomain& clock() const { return clock_; }
  Engine& engine() const { return engine_; }
  std::uint64_t ticks() const { return ticks_; }

 protected:
  // One clock edge. Return true if anything changed; false lets the component sleep.
  virtual bool tick(Cycle cycle) = 0;

 private:
  void on_event(Time now, std::uint64_t) final {
    tick_scheduled_ = false;
    ticked_once_ = true;
    last_tick_ = now;
    ++ticks_;
    if (tick(clock_.cycle_at(now))) {
      engine_.note_progress();
      wake();
    }
  }

  Engine& engine_;
  ClockDomain clock_;
  Time last_tick_ = 0;
  std::uint64_t ticks_ = 0;
  bool tick_scheduled_ = false;
  bool ticked_once_ = false;
};

}  // namespace warpsim::sim
