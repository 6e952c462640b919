#pragma once
// Reads an Accel-Sim kernel trace's thread blocks, after its header, one after another: checks
// each block's structure (FORMAT.md section 3), decodes its instruction lines and encodes them as
// a block record (traces/wtrace/block_record.hpp). It runs on a BlockPipeline's thread, so the
// text is parsed while the model runs, and a block in flight keeps a few bytes per instruction
// instead of its text.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "traces/accelsim/decoded_line_cache.hpp"
#include "traces/accelsim/instruction_decoder.hpp"
#include "traces/accelsim/line_reader.hpp"
#include "traces/accelsim/trace_header.hpp"
#include "traces/block_pipeline.hpp"
#include "traces/wtrace/block_record_builder.hpp"

namespace warpsim::traces::accelsim {

class TracegBlockReader final : public BlockProducer {
 public:
  // `lines` stands just after `header` (read from it).
  TracegBlockReader(std::unique_ptr<LineReader> lines, const TraceHeader& header);

  // Throws InputError (file:line) for a malformed block or instruction line.
  std::shared_ptr<const wtrace::BlockRecord> next() override;
  // Opcodes the table does not know, once each.
  const std::vector<std::string>& warnings() const override { return decoder_.warnings(); }

 private:
  std::shared_ptr<const wtrace::BlockRecord> read_block_body(std::uint64_t id, std::uint64_t begin_line);
  void read_warp(std::uint32_t warp, std::uint64_t count, std::uint64_t warp_line);

  std::unique_ptr<LineReader> lines_;
  const KernelInfo info_;
  InstructionDecoder decoder_;
  DecodedLineCache lines_seen_;
  wtrace::BlockRecordBuilder builder_;
  Instruction instruction_;
  bool begin_pending_;  // the header already consumed "#BEGIN_TB"
  std::optional<std::uint64_t> last_read_id_;
};

}  // namespace warpsim::traces::accelsim
