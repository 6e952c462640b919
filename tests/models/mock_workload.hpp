#pragma once
// Mock producers for SM scenario tests (ChampSim style): a kernel whose warps run programs the
// test writes out instruction by instruction, and a memory system that answers after a fixed
// latency. The fixed-latency memory exists only here; real runs use models/memory.
#include <functional>
#include <memory>
#include <vector>

#include "models/memory/memory_system.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::test {

using traces::Instruction;
using traces::Unit;

inline Instruction op(Unit unit, traces::Reg dst, std::vector<traces::Reg> srcs = {}) {
  Instruction in;
  in.unit = unit;
  if (dst != traces::kNoReg) {
    in.dst_count = 1;
    in.dst[0] = dst;
  }
  in.src_count = static_cast<std::uint8_t>(srcs.size());
  for (std::size_t i = 0; i < srcs.size(); ++i) in.src[i] = srcs[i];
  return in;
}
inline Instruction load(traces::Reg dst, traces::Reg addr_reg) {
  Instruction in = op(Unit::LdSt, dst, {addr_reg});
  in.space = traces::MemSpace::Global;
  in.mem_op = traces::MemOp::Load;
  in.width = 4;
  for (int l = 0; l < 32; ++l) in.addr[l] = 0x1000 + 4 * l;
  return in;
}
// A store of R`data` to one coalesced 128-byte line: writes no register.
inline Instruction store(traces::Reg data) {
  Instruction in = op(Unit::LdSt, traces::kNoReg, {data});
  in.space = traces::MemSpace::Global;
  in.mem_op = traces::MemOp::Store;
  in.width = 4;
  for (int l = 0; l < 32; ++l) in.addr[l] = 0x2000 + 4 * l;
  return in;
}
inline Instruction exit_op() {
  Instruction in = op(Unit::Control, traces::kNoReg);
  in.control = traces::Control::Exit;
  return in;
}
inline Instruction barrier_op() {
  Instruction in = op(Unit::Control, traces::kNoReg);
  in.control = traces::Control::Barrier;
  return in;
}

class VectorStream : public traces::WarpStream {
 public:
  explicit VectorStream(std::vector<Instruction> program) : program_(std::move(program)) {}
  bool next(Instruction& out) override {
    if (at_ == program_.size()) return false;
    out = program_[at_++];
    return true;
  }

 private:
  std::vector<Instruction> program_;
  std::size_t at_ = 0;
};

// Every warp of every block runs program(block, warp).
class ProgramKernel : public traces::KernelSource {
 public:
  using Program = std::function<std::vector<Instruction>(std::uint64_t block, std::uint32_t warp)>;
  ProgramKernel(std::uint32_t blocks, std::uint32_t threads_per_block, Program program) : program_(std::move(program)) {
    info_.name = "mock";
    info_.grid.x = blocks;
    info_.block.x = threads_per_block;
    info_.registers_per_thread = 16;
  }
  const traces::KernelInfo& info() const override { return info_; }
  // Launches go to this CUDA stream (kernels of different streams may run at once).
  ProgramKernel& on_stream(std::uint64_t stream) {
    info_.stream_id = stream;
    return *this;
  }
  std::vector<std::unique_ptr<traces::WarpStream>> open_block(std::uint64_t block) override {
    std::vector<std::unique_ptr<traces::WarpStream>> warps;
    for (std::uint32_t w = 0; w < info_.warps_per_block(); ++w)
      warps.push_back(std::make_unique<VectorStream>(program_(block, w)));
    return warps;
  }

 private:
  traces::KernelInfo info_;
  Program program_;
};

class FixedLatencyMemory : public models::MemorySystem {
 public:
  explicit FixedLatencyMemory(sim::Cycle latency) : latency_(latency) {}
  void begin_kernel(std::uint32_t, const traces::KernelInfo&) override {}
  void end_kernel(std::uint32_t) override {}
  void memcpy_to_device(std::uint64_t, std::uint64_t) override {}
  models::MemoryAccessResult access(std::uint32_t, std::uint32_t, const Instruction&, const models::memory::ByteRange&,
                                    sim::Cycle now) override {
    ++accesses;
    return {now + latency_, 1};
  }
  bool shared_state(const Instruction&) const override { return true; }
  models::CoalescedAccess coalesce(const Instruction&) const override { return {}; }
  sim::Cycle min_latency() const override { return latency_; }
  const models::MemoryCounters& counters() const override { return counters_; }
  void reset_persisting() override {}
  std::uint64_t persisting_bytes() const override { return 0; }
  void flush(sim::Cycle) override {}
  models::MemoryCounters kernel_counters(std::uint32_t) const override { return counters_; }
  sim::Cycle flush_caches(sim::Cycle now) override { return now; }
  std::uint64_t accesses = 0;

 private:
  sim::Cycle latency_;
  models::MemoryCounters counters_;
};

}  // namespace warpsim::test
