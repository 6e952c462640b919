#include "traces/read_ahead_turns.hpp"

#include "traces/block_pipeline.hpp"

namespace warpsim::traces {

std::uint64_t ReadAheadTurns::join(BlockPipeline& pipeline) {
  std::lock_guard lock(mutex_);
  reading_.emplace(next_, &pipeline);
  return next_++;
}

void ReadAheadTurns::leave(std::uint64_t ticket) {
  std::lock_guard lock(mutex_);
  if (reading_.erase(ticket) == 0 || turn_.load() != ticket) return;
  if (reading_.empty()) {
    turn_.store(next_, std::memory_order_release);  // whoever joins next has it at once
    return;
  }
  turn_.store(reading_.begin()->first, std::memory_order_release);
  reading_.begin()->second->turn_came();
}

}  // namespace warpsim::traces
