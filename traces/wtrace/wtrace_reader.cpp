#include "traces/wtrace/wtrace_reader.hpp"

#include <bit>

#include "sim/errors.hpp"
#include "traces/wtrace/block_stream_reader.hpp"
#include "traces/wtrace/byte_codec.hpp"
#include "traces/wtrace/v1_block_reader.hpp"

namespace warpsim::traces::wtrace {
using sim::InputError;

namespace {

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

}  // namespace

WtraceKernelSource::WtraceKernelSource(const std::string& path, const ChunkLocation& begin, const ChunkLocation& end,
                                       std::shared_ptr<ReadAheadTurns> turns)
    : PipelinedKernelSource(std::move(turns)), path_(path), begin_(begin), end_(end) {
  ChunkReader chunks(path);  // for the two chunks here; each producer opens its own
  version_ = chunks.version();
  try {
    auto bytes = chunks.read(begin_);
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
    info_.origin = chunks.where(begin_);  // the kernel's header chunk
  } catch (const DecodeError& e) {
    throw InputError(chunks.where(begin_), std::string("malformed kernel header: ") + e.what());
  }
  try {
    auto bytes = chunks.read(end_);
    ByteReader r(bytes.data(), bytes.size());
    blocks_ = r.varint();  // instructions and memory instructions: for tools, the reader counts itself
    r.varint();
    r.varint();
    std::uint64_t n = r.varint();
    for (std::uint64_t i = 0; i < n; ++i) warnings_.push_back(r.string());
  } catch (const DecodeError& e) {
    throw InputError(chunks.where(end_), std::string("malformed kernel end: ") + e.what());
  }
  start(reopen());
}

WtraceKernelSource::~WtraceKernelSource() = default;

std::unique_ptr<BlockProducer> WtraceKernelSource::reopen() {
  if (version_ == 1) return std::make_unique<v1::BlockChunkReader>(path_, begin_, end_, info_);
  return std::make_unique<BlockStreamReader>(path_, begin_, end_, info_, blocks_,
                                             "kernel '" + label_ + "' (chunk " + std::to_string(begin_.index) + ")");
}

Workload read_wtrace_workload(const std::string& path) {
  ChunkReader chunks(path);
  Workload w;
  auto turns = std::make_shared<ReadAheadTurns>();  // the launches read ahead in turn
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
      } else if (type == ChunkType::Block || type == ChunkType::BlockData) {
        if (!have_kernel) throw InputError(chunks.where(loc), std::string(chunk_type_name(loc.header.type)) + " chunk outside a kernel");
        if ((type == ChunkType::Block) != (chunks.version() == 1))
          throw InputError(chunks.where(loc), std::string(chunk_type_name(loc.header.type)) + " chunk in a version " +
                                                  std::to_string(chunks.version()) + " file");
      } else if (type == ChunkType::KernelEnd) {
        if (!have_kernel) throw InputError(chunks.where(loc), "kernel end without a kernel header");
        LaunchStep launch;
        launch.label = kernel_label;
        launch.open = [path, begin = kernel_begin, end = loc, turns]() -> std::unique_ptr<KernelSource> {
          return std::make_unique<WtraceKernelSource>(path, begin, end, turns);
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
