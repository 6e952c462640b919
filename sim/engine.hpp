#pragma once
// The discrete-event engine: advances time from event to event and runs each event's handler.
// It knows nothing of GPUs. Components register so that the deadlock detector can name them.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/component.hpp"
#include "sim/event_queue.hpp"
#include "sim/time.hpp"

namespace warpsim::sim {

class Engine {
 public:
  // `deadlock_after` is how long work may stay pending with no component reporting progress
  // before run() throws DeadlockError.
  explicit Engine(Time deadlock_after = 1'000'000'000ULL /* 1 ms simulated */)
      : deadlock_after_(deadlock_after) {}

  Time now() const { return now_; }
  void schedule(Time at, EventHandler& handler, std::uint64_t payload = 0);
  void schedule_in(Time delay, EventHandler& handler, std::uint64_t payload = 0) {
    schedule(now_ + delay, handler, payload);
  }
  // Called by models whenever they do useful work (issue, retire, answer a request). Safe from
  // the threads that tick a TickGroup's members at once (sim/window_workers.hpp): they all store
  // the same instant (now_ stays put while a window is ticked), relaxed atomic operations are
  // plain loads and stores on the host, and storing only what changes keeps the host cache line
  // shared among those threads instead of moving it from core to core at every tick.
  void note_progress() {
    if (last_progress_.load(std::memory_order_relaxed) != now_) last_progress_.store(now_, std::memory_order_relaxed);
  }
  // A handler whose one event stands for several instants (a TickGroup's window) says how far
  // it got: the clock moves there, so what runs after it sees the time of the last instant
  // handled. No other handler may have an event before `t` that is not already past.
  void handled_until(Time t) { now_ = std::max(now_, t); }

  // Between runs, with nothing scheduled: the clock moves on to `t` as an idle machine's does
  // (a wait that no component takes part in). Throws std::logic_error if an event is pending.
  void advance_idle(Time t);
  void watch(const Component& component) { watched_.push_back(&component); }

  // Runs until the queue is empty or `until` is passed. Throws DeadlockError when the queue
  // runs dry with work still pending, or when no progress is seen for `deadlock_after`.
  void run(Time until = std::numeric_limits<Time>::max());

  std::uint64_t events_processed() const { return events_processed_; }
  bool any_pending_work() const;

 private:
  [[noreturn]] void report_deadlock(const char* why) const;

  EventQueue queue_;
  Time now_ = 0;
  alignas(64) std::atomic<Time> last_progress_{0};  // a host line of its own (note_progress)
  Time deadlock_after_;
  std::uint64_t events_processed_ = 0;
  std::vector<const Component*> watched_;
};

}  // namespace warpsim::sim
