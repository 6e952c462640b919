#pragma once
// One Accel-Sim kernel trace (.traceg or .traceg.xz) as a KernelSource. The file is read one
// thread block at a time, when open_block asks for it, so memory holds only the text of the
// blocks whose warps are still alive; each warp's lines are decoded as the warp pulls them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "traces/accelsim/instruction_decoder.hpp"
#include "traces/accelsim/line_reader.hpp"
#include "traces/accelsim/trace_header.hpp"
#include "traces/accelsim/trace_origin.hpp"

namespace warpsim::traces::accelsim {

// One thread block's instruction lines, shared by its warp streams.
struct BlockText;

class TracegKernelSource : public TracedKernelSource {
 public:
  // Reads the header; throws InputError (file:line) if it is malformed.
  explicit TracegKernelSource(std::string path);
  // The same, reading bytes from `open()` (called again if the source must reread); `path`
  // only names the input in messages.
  TracegKernelSource(std::string path, std::function<std::unique_ptr<ByteSource>()> open);
  ~TracegKernelSource() override;

  const KernelInfo& info() const override { return header_.info; }
  // Blocks should be asked for in increasing id order (the file is read forward); asking for
  // an earlier block rereads the file from the start. A block the trace left out has no warps.
  std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t block_id) override;
  std::vector<std::string> warnings() const override;
  std::optional<std::uint64_t> next_traced_block(std::uint64_t from) override;
  TraceOrigin origin() const override;

  const TraceHeader& header() const { return header_; }

 private:
  void restart();
  // Reads the next thread block from the file, or returns nullptr at the end of the trace.
  std::shared_ptr<BlockText> read_block();
  std::shared_ptr<BlockText> read_block_body(std::uint64_t id, std::uint64_t begin_line);

  std::string path_;
  std::shared_ptr<const std::string> shared_path_;
  std::function<std::unique_ptr<ByteSource>()> open_;
  std::unique_ptr<LineReader> lines_;
  TraceHeader header_;
  std::shared_ptr<InstructionDecoder> decoder_;
  bool begin_pending_ = false;         // the header already consumed "#BEGIN_TB"
  std::shared_ptr<BlockText> ahead_;   // a block read but not yet asked for
  std::optional<std::uint64_t> last_read_id_;
  std::optional<std::uint64_t> last_opened_id_;
  bool at_end_ = false;
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
