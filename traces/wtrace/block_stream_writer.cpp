#include "traces/wtrace/block_stream_writer.hpp"

#include <zstd.h>

#include <stdexcept>
#include <string>

#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

void check(std::size_t result, const char* what) {
  if (ZSTD_isError(result)) throw std::runtime_error(std::string("zstd ") + what + ": " + ZSTD_getErrorName(result));
}

}  // namespace

struct BlockStreamWriter::Context {
  Context() : cctx(ZSTD_createCCtx()) {
    if (cctx == nullptr) throw std::bad_alloc();
  }
  ~Context() { ZSTD_freeCCtx(cctx); }
  ZSTD_CCtx* cctx;
};

BlockStreamWriter::BlockStreamWriter(ChunkWriter& chunks) : chunks_(chunks), context_(std::make_unique<Context>()) {}

BlockStreamWriter::~BlockStreamWriter() = default;

void BlockStreamWriter::begin() {
  ZSTD_CCtx* c = context_->cctx;
  check(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters), "reset");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, kBlockDataLevel), "level");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, kBlockDataWindowLog), "window");
  check(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1), "checksum");
  pending_.clear();
}

void BlockStreamWriter::write(const std::vector<std::uint8_t>& record) {
  ByteWriter length;
  length.varint(record.size());
  compress(length.bytes().data(), length.size(), false);
  compress(record.data(), record.size(), false);
}

void BlockStreamWriter::end() {
  compress(nullptr, 0, true);
  emit();
}

void BlockStreamWriter::compress(const std::uint8_t* data, std::size_t size, bool last) {
  ZSTD_inBuffer in{data, size, 0};
  std::uint8_t out_bytes[64 * 1024];
  for (;;) {
    ZSTD_outBuffer out{out_bytes, sizeof out_bytes, 0};
    const std::size_t left = ZSTD_compressStream2(context_->cctx, &out, &in, last ? ZSTD_e_end : ZSTD_e_continue);
    check(left, "compression");
    pending_.insert(pending_.end(), out_bytes, out_bytes + out.pos);
    if (pending_.size() >= kChunkBytes) emit();
    if (last ? left == 0 : in.pos == in.size) return;
  }
}

void BlockStreamWriter::emit() {
  if (pending_.empty()) return;
  chunks_.write(ChunkType::BlockData, pending_, false);
  pending_.clear();
}

}  // namespace warpsim::traces::wtrace
