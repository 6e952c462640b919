#pragma once
// A kernel's thread blocks read on a thread of their own, ahead of the simulation that takes
// them: decompression, text parsing and encoding (traces/accelsim) or decompression
// (traces/wtrace) run on another core while the model runs on this one. The queue between the
// two holds a bounded number of bytes of blocks, so memory stays bounded whatever the trace's
// size, and the producer, with its files and decoders (an xz dictionary is up to 64 MiB), is
// released as soon as it reaches the kernel's end. Until the first block is taken the bound is
// small: a launch is opened while the one before it may still run, and its reading ahead then
// must not hold a second dictionary's worth of text. When the simulation finds the queue empty
// and the thread is not reading (a busy host has not scheduled it), the simulation's thread
// reads the next block itself: the run is never slower than reading inline. Blocks come out in
// the order they were read, and what the producer throws comes out in its place in that order:
// a run is the same on any machine.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "traces/read_ahead_turns.hpp"
#include "traces/wtrace/block_record.hpp"

namespace warpsim::traces {

class BlockProducer {
 public:
  virtual ~BlockProducer() = default;
  // The kernel's next traced block, or null after its last. Runs on the pipeline's thread.
  // Throws sim::InputError naming the file and where in it the input is wrong.
  virtual std::shared_ptr<const wtrace::BlockRecord> next() = 0;
  // What the blocks read so far gave reason to warn about, oldest first (read after each block).
  virtual const std::vector<std::string>& warnings() const = 0;
};

class BlockPipeline {
 public:
  // How far the producer may read ahead before the first block is taken, and after.
  static constexpr std::size_t kHeadStartBytes = std::size_t{256} << 10;
  static constexpr std::size_t kAheadBytes = std::size_t{4} << 20;

  // `turns`, if given, is shared by the launches of one workload (read_ahead_turns.hpp).
  explicit BlockPipeline(std::unique_ptr<BlockProducer> producer, std::shared_ptr<ReadAheadTurns> turns = nullptr);
  // Stops the producer (after the block it is reading) and waits for its thread.
  ~BlockPipeline();
  BlockPipeline(const BlockPipeline&) = delete;
  BlockPipeline& operator=(const BlockPipeline&) = delete;

  // The next block, read here if the thread is not reading it; null after the last. Rethrows
  // what the producer threw once the blocks read before it have been taken, and again at every
  // later call.
  std::shared_ptr<const wtrace::BlockRecord> pop();
  // The producer's warnings as of the last block it read.
  std::vector<std::string> warnings() const;
  // This pipeline's turn to read ahead has come (ReadAheadTurns).
  void turn_came();

 private:
  void run();
  // How many bytes of blocks may wait in the queue now; the caller holds mutex_.
  std::size_t ahead_bytes() const;
  void leave_turns();
  // Reads the next block; the caller holds reading_. At the end or on an error, releases the
  // producer and marks the pipeline finished.
  std::shared_ptr<const wtrace::BlockRecord> read();

  std::shared_ptr<ReadAheadTurns> turns_;
  std::uint64_t ticket_ = 0;
  std::mutex reading_;  // held by whichever thread is reading a block
  std::unique_ptr<BlockProducer> producer_;  // guarded by reading_; null once finished
  mutable std::mutex mutex_;  // guards what follows; taken after reading_ and turns_, never before them
  std::condition_variable ready_;  // a block, the end or an error is there to take
  std::condition_variable room_;   // the queue has room, or the pipeline is stopping
  std::deque<std::shared_ptr<const wtrace::BlockRecord>> queue_;
  std::size_t queued_bytes_ = 0;
  bool finished_ = false;  // the producer reached the end or threw, and is released
  bool demanded_ = false;  // a block was asked for
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::string> warnings_;
  std::thread thread_;  // started by the constructor's body, once everything above exists
};

}  // namespace warpsim::traces
