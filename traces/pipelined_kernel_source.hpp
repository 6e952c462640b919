#pragma once
// A traced kernel whose thread blocks a BlockPipeline reads ahead on its own thread: what the
// Accel-Sim and .wtrace readers share once their blocks are block records. Blocks are handed out
// in increasing id order as open_block asks; asking for an earlier block starts reading again
// from the kernel's first block.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/traced_kernel_source.hpp"
#include "traces/block_pipeline.hpp"

namespace warpsim::traces {

class PipelinedKernelSource : public TracedKernelSource {
 public:
  std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t block_id) override;
  std::optional<std::uint64_t> next_traced_block(std::uint64_t from) override;

 protected:
  // `turns` is shared by the launches of the workload this kernel belongs to, or null.
  explicit PipelinedKernelSource(std::shared_ptr<ReadAheadTurns> turns) : turns_(std::move(turns)) {}
  // Derived constructors call this once info() is known, with the producer of the first read.
  void start(std::unique_ptr<BlockProducer> producer);
  // A producer that reads the kernel from its first block again.
  virtual std::unique_ptr<BlockProducer> reopen() = 0;
  // Called on this thread for each block as it is taken from the pipeline, in order.
  virtual void on_block(const wtrace::BlockRecord&) {}
  // The producers' warnings so far, each once, in the order they were first given.
  std::vector<std::string> producer_warnings() const;

 private:
  std::shared_ptr<const wtrace::BlockRecord> read_block();
  void stop();

  std::shared_ptr<ReadAheadTurns> turns_;
  std::unique_ptr<BlockPipeline> pipeline_;
  std::shared_ptr<const wtrace::BlockRecord> ahead_;  // read but not yet asked for
  std::optional<std::uint64_t> last_opened_id_;
  bool at_end_ = false;
  std::vector<std::string> earlier_warnings_;  // of pipelines replaced by a reread
};

}  // namespace warpsim::traces
