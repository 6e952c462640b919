#include "traces/block_pipeline.hpp"

#include <pthread.h>

namespace warpsim::traces {

BlockPipeline::BlockPipeline(std::unique_ptr<BlockProducer> producer, std::shared_ptr<ReadAheadTurns> turns)
    : turns_(std::move(turns)), producer_(std::move(producer)) {
  // In line only now that the locks and conditions exist: from here on, the launch before this
  // one may hand its turn over (turn_came) from its own thread at any moment.
  if (turns_) ticket_ = turns_->join(*this);
  try {
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    leave_turns();  // nobody may wake a pipeline that was never made
    throw;
  }
}

BlockPipeline::~BlockPipeline() {
  leave_turns();  // before stopping: nobody may wake this pipeline once it is gone
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  thread_.join();
}

std::shared_ptr<const wtrace::BlockRecord> BlockPipeline::read() {
  std::shared_ptr<const wtrace::BlockRecord> block;
  std::exception_ptr error;
  try {
    block = producer_->next();
  } catch (...) {
    error = std::current_exception();
  }
  const bool warned = producer_->warnings().size() != warnings().size();
  std::vector<std::string> warnings = warned ? producer_->warnings() : std::vector<std::string>{};
  if (!block) producer_.reset();  // its files and decoders go now, not when the kernel's source does
  std::lock_guard lock(mutex_);
  if (warned) warnings_ = std::move(warnings);
  if (!block) {
    finished_ = true;
    error_ = error;
    ready_.notify_all();
  }
  return block;
}

void BlockPipeline::leave_turns() {
  if (turns_) turns_->leave(ticket_);
}

std::size_t BlockPipeline::ahead_bytes() const {
  return demanded_ || (turns_ && turns_->has_turn(ticket_)) ? kAheadBytes : kHeadStartBytes;
}

void BlockPipeline::turn_came() {
  { std::lock_guard lock(mutex_); }  // a reader testing ahead_bytes() under the lock sees the turn
  room_.notify_all();
}

void BlockPipeline::run() {
  // Named, so that top and perf tell the reading from the simulation (a name is at most 15 bytes).
  pthread_setname_np(pthread_self(), "warpsim-read");
  for (;;) {
    {
      // At least one block is always let through, however large.
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] { return stopping_ || finished_ || queued_bytes_ < ahead_bytes(); });
      if (stopping_ || finished_) break;
    }
    std::lock_guard reading(reading_);
    if (!producer_) break;  // pop() read the end
    std::shared_ptr<const wtrace::BlockRecord> block = read();
    if (!block) break;
    {
      std::lock_guard lock(mutex_);
      queued_bytes_ += block->footprint();
      queue_.push_back(std::move(block));
    }
    // After the lock is given back: woken under it, the simulation's thread would wait for the
    // lock at once and need a second wake-up.
    ready_.notify_one();
  }
  leave_turns();
}

std::shared_ptr<const wtrace::BlockRecord> BlockPipeline::pop() {
  for (;;) {
    std::unique_lock lock(mutex_);
    if (!demanded_) {
      demanded_ = true;
      room_.notify_one();
    }
    if (!queue_.empty()) {
      std::shared_ptr<const wtrace::BlockRecord> block = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= block->footprint();
      lock.unlock();
      room_.notify_one();
      return block;
    }
    if (finished_) {
      if (error_) std::rethrow_exception(error_);
      return nullptr;
    }
    lock.unlock();
    // The queue is empty: if the thread is not reading, read here (reading_ comes before mutex_).
    std::unique_lock reading(reading_, std::try_to_lock);
    if (reading.owns_lock()) {
      {
        std::lock_guard again(mutex_);
        if (!queue_.empty() || finished_) continue;  // the thread got there first
      }
      if (std::shared_ptr<const wtrace::BlockRecord> block = read()) return block;
      continue;  // the end or an error, reported above
    }
    lock.lock();
    ready_.wait(lock, [&] { return !queue_.empty() || finished_; });
  }
}

std::vector<std::string> BlockPipeline::warnings() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

}  // namespace warpsim::traces
