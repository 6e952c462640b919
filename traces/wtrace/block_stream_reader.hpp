#pragma once
// Reads a version 2 kernel's block records back (FORMAT.md): its block data chunks in order, each
// checked against its CRC, through one zstd decoder whose window is at most 8 MiB, cut into
// records at their lengths. A BlockProducer: it runs on the kernel's BlockPipeline thread.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/block_pipeline.hpp"
#include "traces/wtrace/chunk_io.hpp"

namespace warpsim::traces::wtrace {

class BlockStreamReader final : public BlockProducer {
 public:
  // The block data chunks strictly between the kernel's header chunk `begin` and its end chunk
  // `end` of `path`; `blocks` is the count the end chunk gives; `kernel` names it in messages.
  BlockStreamReader(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end, const KernelInfo& info,
                    std::uint64_t blocks, std::string kernel);
  ~BlockStreamReader() override;

  // Throws InputError naming the file and the chunk or block that is corrupt.
  std::shared_ptr<const BlockRecord> next() override;
  const std::vector<std::string>& warnings() const override { return no_warnings_; }

 private:
  // Decompresses more of the stream into buffer_; false when it has ended.
  bool fill();
  // `n` bytes of the stream into `out`; false if it ends first (at once, when `n` bytes were due).
  bool take(std::uint8_t* out, std::size_t n, bool at_record_start);
  [[noreturn]] void fail(const std::string& what) const;

  struct Decoder;
  ChunkReader chunks_;
  const KernelInfo info_;
  const std::uint64_t end_index_, expected_blocks_;
  const std::string kernel_;
  std::unique_ptr<Decoder> decoder_;
  std::uint64_t next_offset_, next_index_;
  ChunkLocation current_;                 // the chunk being decompressed
  std::vector<std::uint8_t> input_;       // its payload
  std::size_t input_pos_ = 0;
  std::vector<std::uint8_t> buffer_;      // decompressed bytes, [begin_, end_) not yet taken
  std::size_t begin_ = 0, end_ = 0;
  bool output_was_full_ = false;
  bool frame_ended_ = false;
  std::uint64_t blocks_read_ = 0;
  std::uint64_t last_id_ = 0;
  const std::vector<std::string> no_warnings_;
};

}  // namespace warpsim::traces::wtrace
