#include "traces/wtrace/v1_block_reader.hpp"

#include "sim/errors.hpp"
#include "traces/wtrace/byte_codec.hpp"
#include "traces/wtrace/v1_instruction_codec.hpp"

namespace warpsim::traces::wtrace::v1 {

using sim::InputError;

BlockChunkReader::BlockChunkReader(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end,
                                   const KernelInfo& info)
    : chunks_(path),
      info_(info),
      end_index_(end.index),
      next_offset_(chunks_.next_offset(begin)),
      next_index_(begin.index + 1) {}

std::shared_ptr<const BlockRecord> BlockChunkReader::next() {
  if (next_index_ >= end_index_) return nullptr;
  const ChunkLocation loc = chunks_.locate(next_offset_, next_index_);
  if (loc.header.type != static_cast<std::uint8_t>(ChunkType::Block))
    throw InputError(chunks_.where(loc), "expected a thread-block chunk inside a kernel");
  const std::vector<std::uint8_t> bytes = chunks_.read(loc);
  const std::string where = chunks_.where(loc);
  std::vector<std::uint8_t> record_bytes;
  std::uint64_t id = 0;
  std::string part = "malformed thread block: ";
  try {
    // Block id, warp count, each warp's instruction count and byte length, then the warps' bytes.
    ByteReader r(bytes.data(), bytes.size());
    id = r.varint();
    const std::uint64_t warps = r.varint();
    if (id >= info_.grid.count()) throw DecodeError("block id outside the grid");
    if (warps != info_.warps_per_block()) throw DecodeError("warp count does not match the block size");
    std::vector<std::pair<std::uint64_t, std::uint64_t>> extents(warps);  // instructions, bytes
    std::uint64_t total = 0;
    for (auto& [count, size] : extents) {
      count = r.varint();
      size = r.varint();
      if (size > bytes.size()) throw DecodeError("warp larger than its chunk");
      total += size;
    }
    if (total != r.remaining()) throw DecodeError("warp sizes do not add up to the chunk");
    builder_.begin(id, static_cast<std::uint32_t>(warps));
    for (std::uint64_t warp = 0; warp < warps; ++warp) {
      part = "malformed instruction data in warp " + std::to_string(warp) + ": ";
      const auto [count, size] = extents[warp];
      ByteReader in(r.position(), static_cast<std::size_t>(size));
      r.skip(size);
      WarpCodingState state;
      for (std::uint64_t i = 0; i < count; ++i) {
        decode_instruction(in, state, instruction_);
        builder_.add(static_cast<std::uint32_t>(warp), instruction_);
      }
      if (in.remaining() != 0) throw DecodeError("bytes left over after the warp's last instruction");
    }
    record_bytes = builder_.finish();
  } catch (const DecodeError& e) {
    throw InputError(where, part + e.what());
  }
  if (have_last_ && id <= last_id_)
    throw InputError(where, "thread blocks out of order (block " + std::to_string(id) + " after " + std::to_string(last_id_) + ")");
  have_last_ = true;
  last_id_ = id;
  next_offset_ = chunks_.next_offset(loc);
  next_index_ = loc.index + 1;
  return std::make_shared<BlockRecord>(parse_block_record(std::move(record_bytes), info_, where));
}

}  // namespace warpsim::traces::wtrace::v1
