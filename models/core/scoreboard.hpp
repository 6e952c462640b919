#pragma once
// A warp's register scoreboard (S2.1, S2.7): for every register, the cycle at which its pending
// write lands. Latencies are known when an instruction issues (ALU latency from the preset, the
// memory system's answer for loads), so readiness is a comparison, not an event.
#include <algorithm>
#include <array>
#include <bitset>

#include "sim/time.hpp"
#include "traces/instruction.hpp"

namespace warpsim::models {

class Scoreboard {
 public:
  static constexpr int kRegisters = 264;  // R0..R254, RZ, P0..P7

  // Clears only the registers written since the last reset: a warp touches a handful of its
  // 264 entries, and wiping all 2 KB at every warp launch would drag the whole array through the
  // host's caches (millions of launches in a large grid).
  void reset() {
    for (std::size_t w = 0; w < written_.size(); ++w) {
      for (std::uint64_t bits = written_[w]; bits != 0; bits &= bits - 1) {
        const std::size_t reg = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
        ready_[reg] = 0;
        from_memory_[reg] = false;
      }
      written_[w] = 0;
    }
  }

  // Earliest cycle the instruction's operands are ready: its sources (read after write) and its
  // destinations (write after write: an in-order pipe must not reorder two writes); and whether
  // the operand that holds it back longest is written by a memory access (stall breakdown).
  struct Readiness {
    sim::Cycle ready = 0;
    bool memory = false;
  };
  Readiness readiness(const traces::Instruction& in) const {
    Readiness r;
    auto consider = [&](traces::Reg reg) {
      if (reg >= kRegisters || ready_[reg] <= r.ready) return;
      r.ready = ready_[reg];
      r.memory = from_memory_[reg];
    };
    for (int i = 0; i < in.src_count; ++i) consider(in.src[i]);
    for (int i = 0; i < in.dst_count; ++i) consider(in.dst[i]);
    return r;
  }
  sim::Cycle ready_cycle(const traces::Instruction& in) const { return readiness(in).ready; }
  bool blocked_by_memory(const traces::Instruction& in) const { return readiness(in).memory; }

  // Records the destinations of an issued instruction. A load of 8 or 16 bytes per lane writes
  // 2 or 4 consecutive registers, although traces name only the first.
  void write(const traces::Instruction& in, sim::Cycle ready, bool from_memory) {
    int span = (in.mem_op == traces::MemOp::Load && in.width > 4) ? in.width / 4 : 1;
    for (int i = 0; i < in.dst_count; ++i) {
      traces::Reg r = in.dst[i];
      if (r >= kRegisters || r == traces::kRegRZ) continue;
      for (int k = 0; k < span && r + k < kRegisters; ++k) {
        ready_[r + k] = ready;
        from_memory_[r + k] = from_memory;
        written_[(r + k) / 64] |= std::uint64_t{1} << ((r + k) % 64);
      }
    }
  }

 private:
  std::array<sim::Cycle, kRegisters> ready_{};
  std::bitset<kRegisters> from_memory_;
  std::array<std::uint64_t, (kRegisters + 63) / 64> written_{};  // registers to clear on reset
};

}  // namespace warpsim::models
