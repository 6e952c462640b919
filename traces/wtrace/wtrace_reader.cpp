#include "traces/wtrace/wtrace_reader.hpp"

#include <bit>

#include "sim/errors.hpp"
#include "traces/wtrace/byte_codec.hpp"
#include "traces/wtrace/instruction_codec.hpp"

namespace warpsim::traces::wtrace {
using sim::InputError;

struct BlockChunk {
  std::uint64_t id = 0;
  std::vector<std::uint8_t> bytes;
  std::string where;  // for messages about this chunk
  struct Warp {
    std::uint64_t count = 0;
    std::size_t offset = 0;
    std::size_t size = 0;
  };
  std::vector<Warp> warps;
};

namespace {

class WtraceWarpStream : public WarpStream {
 public:
  WtraceWarpStream(std::shared_ptr<const BlockChunk> block, const BlockChunk::Warp& warp, std::size_t index)
      : block_(std::move(block)),
        in_(block_->bytes.data() + warp.offset, warp.size),
        remaining_(warp.count),
        index_(index) {}

  bool next(Instruction& out) override {
    if (remaining_ == 0) return false;
    try {
      decode_instruction(in_, state_, out);
      if (--remaining_ == 0 && in_.remaining() != 0) throw DecodeError("bytes left over after the warp's last instruction");
    } catch (const DecodeError& e) {
      throw InputError(block_->where, "malformed instruction data in warp " + std::to_string(index_) + ": " + e.what());
    }
    return true;
  }

 private:
  std::shared_ptr<const BlockChunk> block_;
  ByteReader in_;
  std::uint64_t remaining_;
  std::size_t index_;
  WarpCodingState state_;
};

class EmptyWarpStream : public WarpStream {
 public:
  bool next(Instruction&) override { return false; }
};

std::uint32_t u32_field(ByteReader& r, const char* what) {
  std::uint64_t v = r.varint();
  if (v > UINT32_MAX) throw DecodeError(std::string(what) + " out of range");
  return static_cast<std::uint32_t>(v);
}

Dim3 dim3_field(ByteReader& r, const char* what) {
  Dim3 d{u32_field(r, what), u32_field(r, what), u32_field(r, what)};
  if (!d.x || !d.y || !d.z) throw DecodeError(std::string(what) + " has a zero component");
  // Keeps x*y*z (block ids, thread counts) within 64 bits.
  if (static_cast<unsigned __int128>(d.x) * d.y * d.z >= (static_cast<unsigned __int128>(1) << 63))
    throw DecodeError(std::string(what) + " is too large");
  return d;
}

struct StepIndex {
  std::string name;
  std::vector<WorkloadStep> steps;
};

}  // namespace

WtraceKernelSource::WtraceKernelSource(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end)
    : chunks_(path), begin_(begin), end_(end) {
  try {
    auto bytes = chunks_.read(begin_);
    ByteReader r(bytes.data(), bytes.size());
    label_ = r.string();
    info_.name = r.string();
    info_.grid = dim3_field(r, "grid");
    info_.block = dim3_field(r, "block");
    if (info_.block.count() > 1u << 20) throw DecodeError("block has more than 2^20 threads");
    info_.registers_per_thread = u32_field(r, "registers");
    info_.shared_bytes_per_block = u32_field(r, "shared bytes");
    info_.stream_id = r.varint();
    info_.window.base = r.varint();
    info_.window.bytes = r.varint();
    info_.window.hit_ratio = std::bit_cast<double>(r.u64());
    std::uint8_t hit = r.u8(), miss = r.u8();
    if (hit > 2 || miss > 2) throw DecodeError("bad access property");
    info_.window.hit_prop = static_cast<AccessProperty>(hit);
    info_.window.miss_prop = static_cast<AccessProperty>(miss);
    info_.set_aside_bytes = r.svarint();
    origin_.format = r.string();
    origin_.tracer_version = r.string();
    origin_.binary_version = static_cast<int>(r.varint());
    info_.origin = chunks_.where(begin_);  // the kernel's header chunk
  } catch (const DecodeError& e) {
    throw InputError(chunks_.where(begin_), std::string("malformed kernel header: ") + e.what());
  }
  try {
    auto bytes = chunks_.read(end_);
    ByteReader r(bytes.data(), bytes.size());
    r.varint();  // blocks, instructions, memory instructions: for tools; the reader counts itself
    r.varint();
    r.varint();
    std::uint64_t n = r.varint();
    for (std::uint64_t i = 0; i < n; ++i) warnings_.push_back(r.string());
  } catch (const DecodeError& e) {
    throw InputError(chunks_.where(end_), std::string("malformed kernel end: ") + e.what());
  }
  next_offset_ = chunks_.next_offset(begin_);
  next_index_ = begin_.index + 1;
}

WtraceKernelSource::~WtraceKernelSource() = default;

std::shared_ptr<BlockChunk> WtraceKernelSource::read_next_block() {
  if (next_index_ >= end_.index) return nullptr;
  ChunkLocation loc = chunks_.locate(next_offset_, next_index_);
  if (loc.header.type != static_cast<std::uint8_t>(ChunkType::Block))
    throw InputError(chunks_.where(loc), "expected a thread-block chunk inside a kernel");
  auto block = std::make_shared<BlockChunk>();
  block->bytes = chunks_.read(loc);
  block->where = chunks_.where(loc);
  try {
    ByteReader r(block->bytes.data(), block->bytes.size());
    block->id = r.varint();
    std::uint64_t warps = r.varint();
    if (block->id >= info_.grid.count()) throw DecodeError("block id outside the grid");
    if (warps != info_.warps_per_block()) throw DecodeError("warp count does not match the block size");
    block->warps.resize(warps);
    std::uint64_t total = 0;
    for (auto& w : block->warps) {
      w.count = r.varint();
      w.size = r.varint();
      if (w.size > block->bytes.size()) throw DecodeError("warp larger than its chunk");
      total += w.size;
    }
    if (total != r.remaining()) throw DecodeError("warp sizes do not add up to the chunk");
    std::size_t offset = block->bytes.size() - r.remaining();
    for (auto& w : block->warps) {
      w.offset = offset;
      offset += w.size;
    }
  } catch (const DecodeError& e) {
    throw InputError(block->where, std::string("malformed thread block: ") + e.what());
  }
  if (have_last_read_ && block->id <= last_read_id_)
    throw InputError(block->where, "thread blocks out of order (block " + std::to_string(block->id) + " after " +
                                       std::to_string(last_read_id_) + ")");
  have_last_read_ = true;
  last_read_id_ = block->id;
  next_offset_ = chunks_.next_offset(loc);
  next_index_ = loc.index + 1;
  return block;
}

std::optional<std::uint64_t> WtraceKernelSource::next_traced_block(std::uint64_t from) {
  if (have_last_opened_ && from <= last_opened_id_) {
    next_offset_ = chunks_.next_offset(begin_);
    next_index_ = begin_.index + 1;
    ahead_.reset();
    have_last_read_ = false;
    have_last_opened_ = false;
  }
  while (!ahead_ || ahead_->id < from) {
    ahead_ = read_next_block();
    if (!ahead_) return std::nullopt;
  }
  return ahead_->id;
}

std::vector<std::unique_ptr<WarpStream>> WtraceKernelSource::open_block(std::uint64_t block_id) {
  next_traced_block(block_id);
  have_last_opened_ = true;
  last_opened_id_ = block_id;
  std::vector<std::unique_ptr<WarpStream>> warps;
  if (!ahead_ || ahead_->id != block_id) return warps;
  std::shared_ptr<const BlockChunk> block = std::move(ahead_);
  ahead_.reset();
  for (std::size_t i = 0; i < block->warps.size(); ++i) {
    if (block->warps[i].count == 0) warps.push_back(std::make_unique<EmptyWarpStream>());
    else warps.push_back(std::make_unique<WtraceWarpStream>(block, block->warps[i], i));
  }
  return warps;
}

Workload read_wtrace_workload(const std::string& path) {
  ChunkReader chunks(path);
  Workload w;
  std::uint64_t offset = kFileHeaderBytes, index = 0;
  std::uint64_t declared_steps = 0;
  bool have_kernel = false;
  ChunkLocation kernel_begin;
  std::string kernel_label;
  for (;;) {
    if (offset == chunks.file_size())
      throw InputError(path + ": after chunk " + std::to_string(index == 0 ? 0 : index - 1),
                       "file ends without its end-of-file chunk (truncated)");
    ChunkLocation loc = chunks.locate(offset, index);
    auto type = static_cast<ChunkType>(loc.header.type);
    try {
      if (index == 0 && type != ChunkType::Workload) throw InputError(chunks.where(loc), "the first chunk must be the workload chunk");
      if (type == ChunkType::Workload) {
        if (index != 0) throw InputError(chunks.where(loc), "a second workload chunk");
        auto bytes = chunks.read(loc);
        ByteReader r(bytes.data(), bytes.size());
        w.name = r.string();
        declared_steps = r.varint();
      } else if (type == ChunkType::Memcpy) {
        if (have_kernel) throw InputError(chunks.where(loc), "memcpy chunk inside a kernel");
        auto bytes = chunks.read(loc);
        ByteReader r(bytes.data(), bytes.size());
        WorkloadStep step{WorkloadStep::Kind::Memcpy, {}, {}};
        step.memcpy.device_address = r.varint();
        step.memcpy.bytes = r.varint();
        w.steps.push_back(std::move(step));
      } else if (type == ChunkType::KernelBegin) {
        if (have_kernel) throw InputError(chunks.where(loc), "kernel header inside a kernel");
        auto bytes = chunks.read(loc);
        ByteReader r(bytes.data(), bytes.size());
        kernel_label = r.string();
        kernel_begin = loc;
        have_kernel = true;
      } else if (type == ChunkType::Block) {
        if (!have_kernel) throw InputError(chunks.where(loc), "thread-block chunk outside a kernel");
      } else if (type == ChunkType::KernelEnd) {
        if (!have_kernel) throw InputError(chunks.where(loc), "kernel end without a kernel header");
        LaunchStep launch;
        launch.label = kernel_label;
        launch.open = [path, begin = kernel_begin, end = loc]() -> std::unique_ptr<KernelSource> {
          return std::make_unique<WtraceKernelSource>(path, begin, end);
        };
        w.steps.push_back(WorkloadStep{WorkloadStep::Kind::Launch, {}, std::move(launch)});
        have_kernel = false;
      } else if (type == ChunkType::End) {
        auto bytes = chunks.read(loc);
        ByteReader r(bytes.data(), bytes.size());
        if (r.varint() != index) throw InputError(chunks.where(loc), "chunk count does not match: chunks are missing");
        if (have_kernel) throw InputError(chunks.where(loc), "file ends inside a kernel");
        if (w.steps.size() != declared_steps) throw InputError(chunks.where(loc), "step count does not match the workload chunk");
        if (chunks.next_offset(loc) != chunks.file_size()) throw InputError(chunks.where(loc), "data after the end-of-file chunk");
        return w;
      } else {
        throw InputError(chunks.where(loc), "unknown chunk type " + std::to_string(loc.header.type));
      }
    } catch (const DecodeError& e) {
      throw InputError(chunks.where(loc), std::string("malformed chunk: ") + e.what());
    }
    offset = chunks.next_offset(loc);
    ++index;
  }
}

}  // namespace warpsim::traces::wtrace
