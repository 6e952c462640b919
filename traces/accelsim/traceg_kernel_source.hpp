#pragma once
// One Accel-Sim kernel trace (.traceg or .traceg.xz) as a KernelSource. The header is read at
// once; the thread blocks are read, decoded and encoded on a thread of their own
// (TracegBlockReader in a BlockPipeline) while the model runs, a bounded distance ahead of it,
// so memory holds the encoded blocks in flight and a few MiB read ahead, never the text.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "traces/accelsim/byte_source.hpp"
#include "traces/accelsim/trace_header.hpp"
#include "traces/traced_kernel_source.hpp"
#include "traces/pipelined_kernel_source.hpp"

namespace warpsim::traces::accelsim {

class TracegKernelSource : public PipelinedKernelSource {
 public:
  // Reads the header; throws InputError (file:line) if it is malformed. `turns` is shared by the
  // launches of the kernelslist.g the trace is one of (traces/read_ahead_turns.hpp).
  explicit TracegKernelSource(std::string path, std::shared_ptr<ReadAheadTurns> turns = nullptr);
  // The same, reading bytes from `open()` (called again if the source must reread); `path`
  // only names the input in messages.
  TracegKernelSource(std::string path, std::function<std::unique_ptr<ByteSource>()> open,
                     std::shared_ptr<ReadAheadTurns> turns = nullptr);
  ~TracegKernelSource() override;

  const KernelInfo& info() const override { return header_.info; }
  // Blocks should be asked for in increasing id order (the file is read forward); asking for
  // an earlier block rereads the file from the start. A block the trace left out has no warps.
  std::vector<std::string> warnings() const override;
  TraceOrigin origin() const override;

  const TraceHeader& header() const { return header_; }

 private:
  std::unique_ptr<BlockProducer> reopen() override;
  void on_block(const wtrace::BlockRecord& block) override;
  std::unique_ptr<BlockProducer> open_at_first_block();

  std::string path_;
  std::function<std::unique_ptr<ByteSource>()> open_;
  TraceHeader header_;
  // Blocks that list fewer warps than their size (FORMAT.md: all warps listed), counted once
  // each however often the file is reread, and the first of them for the warning.
  struct ShortBlock {
    std::uint64_t id = 0, line = 0, listed = 0, warps = 0;
  };
  std::optional<ShortBlock> first_short_block_;
  std::uint64_t short_blocks_ = 0;
  std::optional<std::uint64_t> last_checked_id_;
};

}  // namespace warpsim::traces::accelsim
