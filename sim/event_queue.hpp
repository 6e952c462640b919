#pragma once
// The event queue: events ordered by (time, sequence number), so events at equal times run in
// the order they were scheduled and a run is reproducible. An event is four words: no
// std::function and no allocation per event.
//
// Events are grouped by instant: a heap orders the distinct pending times, and each time owns a
// bucket of its events in scheduling order. A GPU's clocked components wake on a few shared
// clock edges (132 SMs ticking at the same edge), so a push is an append to an existing bucket
// and a pop takes the next event of the current bucket; only a new instant costs a heap step.
// Buckets are recycled, so after warm-up nothing is allocated.
#include <cstdint>
#include <unordered_map>
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
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // When the earliest event happens; the queue must not be empty.
  Time next_time() const { return draining() ? current_time_ : instants_.front().time; }

 private:
  static constexpr std::uint32_t kNoBucket = 0xffffffffu;
  struct Instant {
    Time time;
    std::uint32_t bucket;
  };

  // std::*_heap builds a max-heap; "later" as the comparison puts the earliest instant on top.
  static bool later(const Instant& a, const Instant& b) { return a.time > b.time; }
  bool draining() const { return current_ != kNoBucket && cursor_ < buckets_[current_].size(); }
  std::uint32_t bucket_at(Time time);
  void retire_current();

  std::vector<Instant> instants_;                        // min-heap over the distinct pending times
  std::unordered_map<Time, std::uint32_t> bucket_of_;    // pending time -> its bucket
  std::vector<std::vector<Event>> buckets_;              // bucket -> events in scheduling order
  std::vector<std::uint32_t> free_buckets_;
  std::uint32_t current_ = kNoBucket;  // the bucket being popped from, and its time
  Time current_time_ = 0;
  std::size_t cursor_ = 0;             // next event of the current bucket
  Time last_time_ = 0;                 // the time of the last push and its bucket: most pushes
  std::uint32_t last_bucket_ = kNoBucket;  // go to the same edge as the one before
  std::size_t size_ = 0;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace warpsim::sim
