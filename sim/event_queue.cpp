#include "sim/event_queue.hpp"

#include <algorithm>

namespace warpsim::sim {
std::uint32_t EventQueue::bucket_at(Time time) {
  if (last_bucket_ != kNoBucket && last_time_ == time) return last_bucket_;
  auto [it, inserted] = bucket_of_.try_emplace(time, kNoBucket);
  if (inserted) {
    if (free_buckets_.empty()) {
      it->second = static_cast<std::uint32_t>(buckets_.size());
      buckets_.emplace_back();
    } else {
      it->second = free_buckets_.back();
      free_buckets_.pop_back();
    }
    instants_.push_back(Instant{time, it->second});
    std::push_heap(instants_.begin(), instants_.end(), later);
  }
  last_time_ = time;
  last_bucket_ = it->second;
  return it->second;
}

void EventQueue::push(Time time, EventHandler& handler, std::uint64_t payload) {
  // A push at the instant being drained lands in its bucket, after the events still to come:
  // the same order a single heap ordered by (time, sequence) gives.
  buckets_[bucket_at(time)].push_back(Event{time, next_sequence_++, &handler, payload});
  ++size_;
}

void EventQueue::retire_current() {
  bucket_of_.erase(current_time_);
  buckets_[current_].clear();
  free_buckets_.push_back(current_);
  if (last_bucket_ == current_) last_bucket_ = kNoBucket;
  current_ = kNoBucket;
}

Event EventQueue::pop() {
  if (!draining()) {
    if (current_ != kNoBucket) retire_current();
    std::pop_heap(instants_.begin(), instants_.end(), later);
    current_ = instants_.back().bucket;
    current_time_ = instants_.back().time;
    instants_.pop_back();
    cursor_ = 0;
  }
  --size_;
  return buckets_[current_][cursor_++];
}

}  // namespace warpsim::sim
