#include "traces/block_pipeline.hpp"

namespace warpsim::traces {

BlockPipeline::BlockPipeline(std::unique_ptr<BlockProducer> producer)
    : thread_([this, p = std::move(producer)]() mutable { run(std::move(p)); }) {}

BlockPipeline::~BlockPipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  thread_.join();
}

void BlockPipeline::run(std::unique_ptr<BlockProducer> producer) {
  try {
    for (;;) {
      std::shared_ptr<const wtrace::BlockRecord> block = producer->next();
      std::unique_lock lock(mutex_);
      if (producer->warnings().size() != warnings_.size()) warnings_ = producer->warnings();
      if (!block) break;
      // At least one block is always let through, however large.
      room_.wait(lock, [&] { return stopping_ || queued_bytes_ < ahead_bytes_; });
      if (stopping_) break;
      queued_bytes_ += block->footprint();
      queue_.push_back(std::move(block));
      ready_.notify_one();
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    error_ = std::current_exception();
    warnings_ = producer->warnings();
  }
  producer.reset();  // its files and decoders go now, not when the kernel's source does
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  ready_.notify_one();
}

std::shared_ptr<const wtrace::BlockRecord> BlockPipeline::pop() {
  std::unique_lock lock(mutex_);
  if (ahead_bytes_ != kAheadBytes) {
    ahead_bytes_ = kAheadBytes;
    room_.notify_one();
  }
  ready_.wait(lock, [&] { return !queue_.empty() || finished_; });
  if (queue_.empty()) {
    if (error_) std::rethrow_exception(error_);
    return nullptr;
  }
  std::shared_ptr<const wtrace::BlockRecord> block = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= block->footprint();
  lock.unlock();
  room_.notify_one();
  return block;
}

std::vector<std::string> BlockPipeline::warnings() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

}  // namespace warpsim::traces
