#pragma once
// The event queue: events ordered by (time, sequence number), so events at equal times run in
// the order they were scheduled and a run is reproducible. An event is four words: no
// std::function and no allocation per event (the heap's vector grows once and is reused).
#include <cstdint>
#include <vector>

#include "sim/time.hpp"

namespace warpsim::sim {

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  // `payload` is whatever the scheduler of the event chose to pass: an index, a tag.
  virtual void on_event(Time now, std::uint64_t payload) = 0;
};

struct Event {
  Time time;
  std::uint64_t sequence;
  EventHandler* handler;
  std::uint64_t payload;
};

class EventQueue {
 public:
  void push(Time time, EventHandler& handler, std::uint64_t payload);
  // The earliest event; the queue must not be empty.
  Event pop();
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  Time next_time() const { return heap_.front().time; }

 private:
  std::vector<Event> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace warpsim::sim
