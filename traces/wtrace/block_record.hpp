#pragma once
// One thread block's instructions in the block encoding of .wtrace version 2 (FORMAT.md): a table
// of the block's distinct static instructions (PC, unit, registers, memory kind), then each
// warp's instructions as steps through that table with their active masks and addresses. Every
// trace reader hands its blocks to the simulator in this form: the .wtrace reader as stored, the
// Accel-Sim reader once its own thread has parsed the text (traces/block_pipeline.hpp). A block
// in flight costs a few bytes per instruction, and a warp's next() is a table step, a 32-byte
// copy and, for a memory instruction, its addresses.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/instruction.hpp"
#include "traces/kernel_source.hpp"
#include "traces/warp_stream.hpp"

namespace warpsim::traces::wtrace {

// Each warp predicts a memory instruction's first address from the last one at the same static
// instruction, remembered in this many slots (a direct-mapped cache by memory-instruction number).
inline constexpr std::uint32_t kAddressSlots = 64;

struct BlockRecord {
  std::uint64_t id = 0;
  std::vector<std::uint8_t> bytes;     // the encoded record; warps decode their part of it
  std::vector<InstructionHead> table;  // the static instructions (active_mask unused)
  std::vector<std::uint32_t> memory_number;  // per table entry: its number among memory entries
  std::uint32_t memory_entries = 0;
  struct Warp {
    std::uint64_t instructions = 0;
    std::size_t offset = 0, size = 0;  // of its instruction bytes in `bytes`
  };
  std::vector<Warp> warps;
  std::string where;  // names the block in messages: "file.wtrace: kernel 2, thread block 17"
  // Set by the Accel-Sim reader: how many warps the block listed, and the line of its #BEGIN_TB.
  std::uint32_t listed_warps = 0;
  std::uint64_t first_line = 0;

  // Host memory the record holds, for the bound on blocks read ahead.
  std::size_t footprint() const;
};

// Checks `bytes` as the record of one thread block of `kernel` and decodes its table; `where`
// goes into the record for later messages. Throws DecodeError saying what is malformed.
BlockRecord parse_block_record(std::vector<std::uint8_t> bytes, const KernelInfo& kernel, std::string where);

// The block's warp streams, warp 0 first (warps without instructions included). A stream throws
// sim::InputError naming record.where if its bytes are malformed.
std::vector<std::unique_ptr<WarpStream>> open_record_warps(std::shared_ptr<const BlockRecord> record);

}  // namespace warpsim::traces::wtrace
