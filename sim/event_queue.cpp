#include "sim/event_queue.hpp"

#include <algorithm>

namespace warpsim::sim {
namespace {
// std::*_heap builds a max-heap; "later" as the comparison puts the earliest event on top.
bool later(const Event& a, const Event& b) {
  return a.time != b.time ? a.time > b.time : a.sequence > b.sequence;
}
}  // namespace

void EventQueue::push(Time time, EventHandler& handler, std::uint64_t payload) {
  heap_.push_back(Event{time, next_sequence_++, &handler, payload});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

Event EventQueue::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Event e = heap_.back();
  heap_.pop_back();
  return e;
}

}  // namespace warpsim::sim
