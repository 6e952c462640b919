#include "traces/wtrace/block_stream_reader.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "sim/errors.hpp"
#include "traces/wtrace/block_stream_writer.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {

struct BlockStreamReader::Decoder {
  Decoder() : dctx(ZSTD_createDCtx()) {
    if (dctx == nullptr) throw std::bad_alloc();
    // A frame that asks for a larger window is refused rather than allocated: memory stays bounded.
    ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, kBlockDataWindowLog);
  }
  ~Decoder() { ZSTD_freeDCtx(dctx); }
  ZSTD_DCtx* dctx;
};

BlockStreamReader::BlockStreamReader(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end,
                                     const KernelInfo& info, std::uint64_t blocks, std::string kernel)
    : chunks_(path),
      info_(info),
      end_index_(end.index),
      expected_blocks_(blocks),
      kernel_(std::move(kernel)),
      decoder_(std::make_unique<Decoder>()),
      next_offset_(chunks_.next_offset(begin)),
      next_index_(begin.index + 1),
      current_(begin),
      buffer_(std::size_t{256} << 10) {}

BlockStreamReader::~BlockStreamReader() = default;

void BlockStreamReader::fail(const std::string& what) const {
  throw sim::InputError(chunks_.path() + ": " + kernel_ + ", block data", what);
}

bool BlockStreamReader::fill() {
  begin_ = end_ = 0;  // called once everything decompressed has been taken
  for (;;) {
    if (input_pos_ == input_.size() && !output_was_full_) {
      if (frame_ended_ || next_index_ >= end_index_) return false;
      current_ = chunks_.locate(next_offset_, next_index_);
      if (current_.header.type != static_cast<std::uint8_t>(ChunkType::BlockData))
        throw sim::InputError(chunks_.where(current_), "expected a block data chunk inside a kernel");
      input_ = chunks_.read(current_);  // checks the CRC
      input_pos_ = 0;
      next_offset_ = chunks_.next_offset(current_);
      next_index_ = current_.index + 1;
    }
    ZSTD_inBuffer in{input_.data(), input_.size(), input_pos_};
    ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
    const std::size_t left = ZSTD_decompressStream(decoder_->dctx, &out, &in);
    if (ZSTD_isError(left))
      throw sim::InputError(chunks_.where(current_), std::string("corrupt block data (zstd: ") + ZSTD_getErrorName(left) + ")");
    input_pos_ = in.pos;
    end_ = out.pos;
    // A full buffer may leave decoded bytes inside the decoder: the next call gets them first.
    output_was_full_ = out.pos == out.size;
    if (left == 0) {
      frame_ended_ = true;
      if (input_pos_ != input_.size() || next_index_ < end_index_)
        throw sim::InputError(chunks_.where(current_), "data after the end of the kernel's block data");
    }
    if (end_ > 0) return true;
    if (frame_ended_) return false;
  }
}

bool BlockStreamReader::take(std::uint8_t* out, std::size_t n, bool at_record_start) {
  std::size_t done = 0;
  while (done < n) {
    if (begin_ == end_ && !fill()) {
      if (done == 0 && at_record_start) return false;
      fail(frame_ended_ ? "the stream ends inside a thread block's record" : "the stream ends before its end (truncated?)");
    }
    const std::size_t k = std::min(n - done, end_ - begin_);
    std::memcpy(out + done, buffer_.data() + begin_, k);
    begin_ += k;
    done += k;
  }
  return true;
}

std::shared_ptr<const BlockRecord> BlockStreamReader::next() {
  // The record's length: a varint, read a byte at a time.
  std::uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    std::uint8_t b;
    if (!take(&b, 1, shift == 0)) {
      if (!frame_ended_) fail("the stream ends before its end (truncated?)");
      if (blocks_read_ != expected_blocks_)
        fail("holds " + std::to_string(blocks_read_) + " thread blocks where the kernel's end chunk says " +
             std::to_string(expected_blocks_));
      return nullptr;
    }
    if (shift > 56) fail("a record length longer than 9 bytes");
    length |= std::uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  if (length > kMaxChunkBytes) fail("a thread block's record claims " + std::to_string(length) + " bytes");
  // Filled as the stream gives it, so a corrupt length costs no more memory than the data there.
  std::vector<std::uint8_t> bytes;
  while (bytes.size() < length) {
    const std::size_t piece = std::min<std::uint64_t>(length - bytes.size(), std::size_t{4} << 20);
    const std::size_t at = bytes.size();
    bytes.resize(at + piece);
    take(bytes.data() + at, piece, false);
  }
  const std::string where = chunks_.path() + ": " + kernel_ + ", thread block record " + std::to_string(blocks_read_);
  auto record = std::make_shared<BlockRecord>();
  try {
    *record = parse_block_record(std::move(bytes), info_, where);
  } catch (const DecodeError& e) {
    throw sim::InputError(where, std::string("malformed thread block: ") + e.what());
  }
  if (blocks_read_ > 0 && record->id <= last_id_)
    throw sim::InputError(where, "thread blocks out of order (block " + std::to_string(record->id) + " after " +
                                     std::to_string(last_id_) + ")");
  last_id_ = record->id;
  ++blocks_read_;
  return record;
}

}  // namespace warpsim::traces::wtrace
