#include "traces/pipelined_kernel_source.hpp"

#include <algorithm>

namespace warpsim::traces {
namespace {

void add_new(std::vector<std::string>& into, const std::vector<std::string>& more) {
  for (const auto& w : more)
    if (std::find(into.begin(), into.end(), w) == into.end()) into.push_back(w);
}

}  // namespace

void PipelinedKernelSource::stop() {
  if (pipeline_) add_new(earlier_warnings_, pipeline_->warnings());
  pipeline_.reset();
}

void PipelinedKernelSource::start(std::unique_ptr<BlockProducer> producer) {
  pipeline_ = std::make_unique<BlockPipeline>(std::move(producer), turns_);
  ahead_.reset();
  last_opened_id_.reset();
  at_end_ = false;
}

std::shared_ptr<const wtrace::BlockRecord> PipelinedKernelSource::read_block() {
  if (at_end_) return nullptr;
  std::shared_ptr<const wtrace::BlockRecord> block = pipeline_->pop();
  if (block) on_block(*block);
  else at_end_ = true;
  return block;
}

std::optional<std::uint64_t> PipelinedKernelSource::next_traced_block(std::uint64_t from) {
  if (last_opened_id_ && from <= *last_opened_id_) {
    stop();  // its thread ends before the next one starts
    start(reopen());
  }
  while (!ahead_ || ahead_->id < from) {
    ahead_ = read_block();
    if (!ahead_) return std::nullopt;
  }
  return ahead_->id;
}

std::vector<std::unique_ptr<WarpStream>> PipelinedKernelSource::open_block(std::uint64_t block_id) {
  next_traced_block(block_id);
  last_opened_id_ = block_id;
  if (!ahead_ || ahead_->id != block_id) return {};  // left out of the trace
  std::shared_ptr<const wtrace::BlockRecord> block = std::move(ahead_);
  ahead_.reset();
  // The grid's last block: nothing valid can follow it, so the rest of the kernel is read now.
  // A block out of order or repeated, or junk after it, fails here as it does for `trace info`,
  // instead of going unread while the run reports a kernel short of blocks.
  if (block_id + 1 == info().grid.count())
    while (read_block() != nullptr) {
    }
  return wtrace::open_record_warps(std::move(block));
}

std::vector<std::string> PipelinedKernelSource::producer_warnings() const {
  std::vector<std::string> out = earlier_warnings_;
  if (pipeline_) add_new(out, pipeline_->warnings());
  return out;
}

}  // namespace warpsim::traces
