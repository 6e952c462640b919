#include "traces/wtrace/wtrace_writer.hpp"

#include <bit>
#include <cstdio>
#include <filesystem>

#include "sim/output_file.hpp"
#include "traces/traced_kernel_source.hpp"
#include "traces/wtrace/block_record_builder.hpp"
#include "traces/wtrace/block_stream_writer.hpp"
#include "traces/wtrace/chunk_io.hpp"

namespace warpsim::traces::wtrace {
namespace {

class WorkloadWriter {
 public:
  explicit WorkloadWriter(const std::string& path) : chunks_(path), blocks_(chunks_) {}

  void begin(const std::string& name, std::uint64_t steps) {
    ByteWriter w;
    w.string(name);
    w.varint(steps);
    chunks_.write(ChunkType::Workload, w.bytes());
  }

  void memcpy(const MemcpyStep& step) {
    ByteWriter w;
    w.varint(step.device_address);
    w.varint(step.bytes);
    chunks_.write(ChunkType::Memcpy, w.bytes());
  }

  void kernel(KernelSource& source, const std::string& label) {
    write_kernel_header(source, label);
    std::uint64_t blocks = 0, instructions = 0, memory = 0;
    Instruction inst;
    blocks_.begin();
    for_each_block(source, [&](std::uint64_t id) {
      auto warps = source.open_block(id);
      if (warps.empty()) return;  // left out of the trace
      ++blocks;
      builder_.begin(id, static_cast<std::uint32_t>(warps.size()));
      for (std::size_t w = 0; w < warps.size(); ++w)
        while (warps[w]->next(inst)) {
          builder_.add(static_cast<std::uint32_t>(w), inst);
          if (inst.is_memory()) ++memory;
        }
      instructions += builder_.instructions();
      blocks_.write(builder_.finish());
    });
    blocks_.end();
    ByteWriter end;
    end.varint(blocks);
    end.varint(instructions);
    end.varint(memory);
    auto warnings = source.warnings();
    end.varint(warnings.size());
    for (const auto& s : warnings) end.string(s);
    chunks_.write(ChunkType::KernelEnd, end.bytes());
    summary_.kernels += 1;
    summary_.blocks += blocks;
    summary_.instructions += instructions;
  }

  WriteSummary finish() {
    chunks_.finish();
    summary_.bytes = chunks_.bytes_written();
    return summary_;
  }

 private:
  void write_kernel_header(KernelSource& source, const std::string& label) {
    const KernelInfo& k = source.info();
    TraceOrigin origin{"library", "", 0};
    if (auto* traced = dynamic_cast<TracedKernelSource*>(&source)) origin = traced->origin();
    ByteWriter w;
    w.string(label);
    w.string(k.name);
    for (const Dim3* d : {&k.grid, &k.block}) {
      w.varint(d->x);
      w.varint(d->y);
      w.varint(d->z);
    }
    w.varint(k.registers_per_thread);
    w.varint(k.shared_bytes_per_block);
    w.varint(k.stream_id);
    w.varint(k.window.base);
    w.varint(k.window.bytes);
    w.u64(std::bit_cast<std::uint64_t>(k.window.hit_ratio));
    w.u8(static_cast<std::uint8_t>(k.window.hit_prop));
    w.u8(static_cast<std::uint8_t>(k.window.miss_prop));
    w.svarint(k.set_aside_bytes);
    w.string(origin.format);
    w.string(origin.tracer_version);
    w.varint(static_cast<std::uint64_t>(origin.binary_version));
    chunks_.write(ChunkType::KernelBegin, w.bytes());
  }

  ChunkWriter chunks_;
  BlockStreamWriter blocks_;
  BlockRecordBuilder builder_;
  WriteSummary summary_;
};

// Writes through `body` into a temporary file next to `path`, renamed into place on success
// and removed on failure, so no half-written .wtrace is ever left behind.
template <typename Body>
WriteSummary write_atomically(const std::string& destination, Body body) {
  const std::string path = sim::output_target(destination).string();  // through a symbolic link, which stays
  std::string partial = path + ".partial";
  try {
    WorkloadWriter writer(partial);
    body(writer);
    WriteSummary s = writer.finish();
    std::filesystem::rename(partial, path);
    return s;
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    throw;
  }
}

}  // namespace

WriteSummary write_wtrace(const Workload& workload, const std::string& path) {
  return write_atomically(path, [&](WorkloadWriter& w) {
    w.begin(workload.name, workload.steps.size());
    for (const auto& step : workload.steps) {
      if (step.kind == WorkloadStep::Kind::Memcpy) {
        w.memcpy(step.memcpy);
      } else {
        auto source = step.launch.open();
        w.kernel(*source, step.launch.label);
      }
    }
  });
}

WriteSummary write_wtrace(KernelSource& kernel, const std::string& label, const std::string& path) {
  return write_atomically(path, [&](WorkloadWriter& w) {
    w.begin(label, 1);
    w.kernel(kernel, label);
  });
}

}  // namespace warpsim::traces::wtrace
