#pragma once
// Reads .wtrace files (FORMAT.md in this folder), versions 1 and 2. Opening scans the chunk
// headers once (their payloads are skipped) to find the steps, which also catches truncation up
// front; a kernel's thread blocks are then read on a thread of their own (a BlockPipeline),
// ahead of the simulation, each chunk checked against its CRC.
#include <cstdint>
#include <memory>
#include <string>

#include "traces/pipelined_kernel_source.hpp"
#include "traces/wtrace/chunk_io.hpp"
#include "traces/workload.hpp"

namespace warpsim::traces::wtrace {

// The workload stored in `path`: its memcpy steps and a lazily opened launch per kernel.
// Throws InputError naming the file and chunk if it is not a complete, intact .wtrace.
Workload read_wtrace_workload(const std::string& path);

class WtraceKernelSource : public PipelinedKernelSource {
 public:
  // The kernel whose KernelBegin chunk is `begin` and KernelEnd chunk is `end` in `path`;
  // `turns` is shared by the launches of the file (traces/read_ahead_turns.hpp).
  WtraceKernelSource(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end,
                     std::shared_ptr<ReadAheadTurns> turns = nullptr);
  ~WtraceKernelSource() override;

  const KernelInfo& info() const override { return info_; }
  std::vector<std::string> warnings() const override { return warnings_; }
  TraceOrigin origin() const override { return origin_; }
  const std::string& label() const { return label_; }

 private:
  std::unique_ptr<BlockProducer> reopen() override;

  std::string path_;
  ChunkLocation begin_, end_;
  std::uint32_t version_ = 0;
  std::string label_;
  KernelInfo info_;
  TraceOrigin origin_;
  std::uint64_t blocks_ = 0;  // as the end chunk gives them
  std::vector<std::string> warnings_;
};

}  // namespace warpsim::traces::wtrace
