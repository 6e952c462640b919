#include "traces/accelsim/traceg_kernel_source.hpp"

#include "traces/accelsim/line_reader.hpp"
#include "traces/accelsim/traceg_block_reader.hpp"

namespace warpsim::traces::accelsim {

TracegKernelSource::TracegKernelSource(std::string path, std::shared_ptr<ReadAheadTurns> turns)
    : TracegKernelSource(path, [path] { return open_byte_source(path); }, std::move(turns)) {}

TracegKernelSource::TracegKernelSource(std::string path, std::function<std::unique_ptr<ByteSource>()> open,
                                       std::shared_ptr<ReadAheadTurns> turns)
    : PipelinedKernelSource(std::move(turns)), path_(std::move(path)), open_(std::move(open)) {
  start(open_at_first_block());
}

TracegKernelSource::~TracegKernelSource() = default;

std::unique_ptr<BlockProducer> TracegKernelSource::open_at_first_block() {
  auto lines = std::make_unique<LineReader>(path_, open_());
  header_ = read_trace_header(*lines);
  return std::make_unique<TracegBlockReader>(std::move(lines), header_);
}

std::unique_ptr<BlockProducer> TracegKernelSource::reopen() { return open_at_first_block(); }

void TracegKernelSource::on_block(const wtrace::BlockRecord& block) {
  if (last_checked_id_ && block.id <= *last_checked_id_) return;
  last_checked_id_ = block.id;
  if (block.listed_warps < block.warps.size()) {
    if (!first_short_block_) first_short_block_ = ShortBlock{block.id, block.first_line, block.listed_warps, block.warps.size()};
    ++short_blocks_;
  }
}

std::vector<std::string> TracegKernelSource::warnings() const {
  std::vector<std::string> out;
  for (const auto& w : producer_warnings()) out.push_back(path_ + ": " + w);
  if (first_short_block_) {
    // Accepted, not refused: the missing warps run nothing, which is what a hand-cut trace means.
    const ShortBlock& b = *first_short_block_;
    const std::string more =
        short_blocks_ > 1 ? " (and " + std::to_string(short_blocks_ - 1) + " more blocks list too few)" : "";
    out.push_back(path_ + ":" + std::to_string(b.line) + ": thread block " + std::to_string(b.id) + " lists " +
                  std::to_string(b.listed) + " of its " + std::to_string(b.warps) + " warps" + more +
                  "; the warps not listed run no instruction (a traced block lists all its warps)");
  }
  return out;
}

TraceOrigin TracegKernelSource::origin() const {
  return TraceOrigin{"accelsim", header_.tracer_version_text, header_.binary_version};
}

}  // namespace warpsim::traces::accelsim
