#pragma once
// Reads a version 1 kernel's thread-block chunks (FORMAT.md, "Version 1": one deflated chunk per
// block, instructions in the version 1 coding) and hands each block over as a version 2 block
// record, so that the simulator reads every .wtrace the same way. A BlockProducer: it runs on the
// kernel's BlockPipeline thread.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/block_pipeline.hpp"
#include "traces/wtrace/block_record_builder.hpp"
#include "traces/wtrace/chunk_io.hpp"

namespace warpsim::traces::wtrace::v1 {

class BlockChunkReader final : public BlockProducer {
 public:
  // The chunks strictly between the kernel's header chunk `begin` and its end chunk `end`.
  BlockChunkReader(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end, const KernelInfo& info);

  // Throws InputError naming the file and the chunk that is corrupt.
  std::shared_ptr<const BlockRecord> next() override;
  const std::vector<std::string>& warnings() const override { return no_warnings_; }

 private:
  ChunkReader chunks_;
  const KernelInfo info_;
  const std::uint64_t end_index_;
  std::uint64_t next_offset_, next_index_;
  bool have_last_ = false;
  std::uint64_t last_id_ = 0;
  BlockRecordBuilder builder_;
  Instruction instruction_;
  const std::vector<std::string> no_warnings_;
};

}  // namespace warpsim::traces::wtrace::v1
