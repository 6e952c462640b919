#pragma once
// Reads .wtrace files (FORMAT.md in this folder). Opening scans the chunk headers once (their
// payloads are skipped) to find the steps, which also catches truncation up front; a kernel
// then reads one thread-block chunk at a time as open_block asks, checking each chunk's CRC.
#include <cstdint>
#include <memory>
#include <string>

#include "traces/accelsim/trace_origin.hpp"
#include "traces/wtrace/chunk_io.hpp"
#include "traces/workload.hpp"

namespace warpsim::traces::wtrace {

// The workload stored in `path`: its memcpy steps and a lazily opened launch per kernel.
// Throws InputError naming the file and chunk if it is not a complete, intact .wtrace.
Workload read_wtrace_workload(const std::string& path);

struct BlockChunk;

class WtraceKernelSource : public TracedKernelSource {
 public:
  // The kernel whose KernelBegin chunk is `begin` and KernelEnd chunk is `end` in `path`.
  WtraceKernelSource(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end);
  ~WtraceKernelSource() override;

  const KernelInfo& info() const override { return info_; }
  // Increasing ids read forward; an earlier id rewinds to the kernel's first block.
  std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t block_id) override;
  std::vector<std::string> warnings() const override { return warnings_; }
  std::optional<std::uint64_t> next_traced_block(std::uint64_t from) override;
  TraceOrigin origin() const override { return origin_; }
  const std::string& label() const { return label_; }

 private:
  std::shared_ptr<BlockChunk> read_next_block();

  ChunkReader chunks_;
  ChunkLocation begin_, end_;
  std::string label_;
  KernelInfo info_;
  TraceOrigin origin_;
  std::vector<std::string> warnings_;
  std::uint64_t next_offset_ = 0;
  std::uint64_t next_index_ = 0;
  std::shared_ptr<BlockChunk> ahead_;
  bool have_last_read_ = false;
  std::uint64_t last_read_id_ = 0;
  bool have_last_opened_ = false;
  std::uint64_t last_opened_id_ = 0;
};

}  // namespace warpsim::traces::wtrace
