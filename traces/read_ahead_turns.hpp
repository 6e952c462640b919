#pragma once
// Which of a workload's launches reads far ahead of the simulation before anything asks for its
// blocks. A launch is opened while the one before it may still be read and run; until its first
// block is asked for it reads only a head start (BlockPipeline), unless it is its turn: the
// oldest launch still being read has the turn. So a launch is read while the one before it runs
// (its blocks are ready when its turn to run comes), and no two launches read past their head
// start at once unless both are running: one xz dictionary, not one per launch opened.
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace warpsim::traces {

class BlockPipeline;

class ReadAheadTurns {
 public:
  // Takes the next place in line (launches join in launch order).
  std::uint64_t join(BlockPipeline& pipeline);
  // `ticket` has stopped reading; if it had the turn, the next in line gets it and is woken.
  // Calling it again does nothing.
  void leave(std::uint64_t ticket);
  bool has_turn(std::uint64_t ticket) const { return turn_.load(std::memory_order_acquire) == ticket; }

 private:
  std::mutex mutex_;  // taken before a pipeline's own lock, never after it
  std::uint64_t next_ = 0;
  std::atomic<std::uint64_t> turn_{0};
  std::map<std::uint64_t, BlockPipeline*> reading_;  // joined, not yet left
};

}  // namespace warpsim::traces
