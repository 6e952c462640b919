#pragma once
// Writes a kernel's block records (version 2, FORMAT.md) as one zstd stream, cut into block data
// chunks of about a MiB each as the compressed bytes come: one frame per kernel, so each thread
// block is compressed against all the blocks before it (a kernel's blocks run the same code and
// differ in a few addresses), and a reader still holds only the decoder's window.
#include <cstdint>
#include <memory>
#include <vector>

#include "traces/wtrace/chunk_io.hpp"

namespace warpsim::traces::wtrace {

// zstd's settings for block data: the window a reader must hold (8 MiB, the most it accepts) and
// the level (chosen on the corpus: FORMAT.md gives sizes and speeds).
inline constexpr int kBlockDataWindowLog = 23;
inline constexpr int kBlockDataLevel = 3;

class BlockStreamWriter {
 public:
  explicit BlockStreamWriter(ChunkWriter& chunks);
  ~BlockStreamWriter();
  BlockStreamWriter(const BlockStreamWriter&) = delete;
  BlockStreamWriter& operator=(const BlockStreamWriter&) = delete;

  // Starts a kernel's stream.
  void begin();
  // Appends one record (its length first).
  void write(const std::vector<std::uint8_t>& record);
  // Ends the kernel's stream and writes what is left as its last block data chunk.
  void end();

 private:
  void compress(const std::uint8_t* data, std::size_t size, bool last);
  void emit();

  struct Context;
  ChunkWriter& chunks_;
  std::unique_ptr<Context> context_;
  std::vector<std::uint8_t> pending_;  // compressed bytes not yet in a chunk
};

}  // namespace warpsim::traces::wtrace
