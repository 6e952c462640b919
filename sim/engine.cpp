#include "sim/engine.hpp"

#include <sstream>
#include <stdexcept>

#include "sim/errors.hpp"

namespace warpsim::sim {

void Engine::schedule(Time at, EventHandler& handler, std::uint64_t payload) {
  if (at < now_) throw std::logic_error("event scheduled in the past");
  queue_.push(at, handler, payload);
}

bool Engine::any_pending_work() const {
  for (const Component* c : watched_)
    if (c->has_pending_work()) return true;
  return false;
}

void Engine::run(Time until) {
  // Checking every component after every event would cost more than the events themselves, so
  // the progress watchdog only looks when the event count crosses a power-of-two-ish stride.
  constexpr std::uint64_t kWatchdogStride = 4096;
  while (!queue_.empty()) {
    if (queue_.next_time() > until) return;
    Event e = queue_.pop();
    // Never back: a handler may have handled instants past its event (handled_until), and an
    // event left behind inside them is one its handler superseded (it ignores it).
    now_ = std::max(now_, e.time);
    e.handler->on_event(e.time, e.payload);
    ++events_processed_;
    if (events_processed_ % kWatchdogStride == 0 && now_ - last_progress_.load(std::memory_order_relaxed) > deadlock_after_ &&
        any_pending_work())
      report_deadlock("no progress");
  }
  if (any_pending_work()) report_deadlock("nothing left to happen");
}

void Engine::advance_idle(Time t) {
  if (!queue_.empty()) throw std::logic_error("Engine::advance_idle with events pending");
  now_ = std::max(now_, t);
  last_progress_.store(now_, std::memory_order_relaxed);  // waiting is not a deadlock
}

void Engine::report_deadlock(const char* why) const {
  std::ostringstream msg;
  msg << "deadlock at t=" << now_ << " ps (" << why << " since t=" << last_progress_.load(std::memory_order_relaxed)
      << " ps); stuck:";
  for (const Component* c : watched_) {
    if (!c->has_pending_work()) continue;
    msg << "\n  " << c->path();
    std::string w = c->waiting_for();
    if (!w.empty()) msg << " waits for " << w;
  }
  throw DeadlockError(msg.str());
}

}  // namespace warpsim::sim
