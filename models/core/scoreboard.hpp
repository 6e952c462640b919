#pragma once
// A warp's register scoreboard (S2.1, S2.7): for every register, the cycle at which its pending
// write lands. Latencies are known when an instruction issues (ALU latency from the preset, the
// memory system's answer for loads), so readiness is a comparison, not an event.
//
// Host layout: an SM holds 64 warps and a GPU 132 SMs, and every issue reads a few entries of a
// warp that has usually left the host's caches, so an entry is 32 bits: the cycle as an offset
// from the warp's epoch (its launch cycle), shifted left by one, with the low bit saying whether
// a memory access writes it. 16 entries share one 64-byte host cache line (with 64-bit cycles
// and a separate bit set, a warp's first 16 registers took three). Entries are kept in the
// order P0-P7, R0-R255 (see entry_index): nearly every kernel sets and tests a predicate, and
// with the predicates after R255 each warp's first ISETP and its guarded EXIT missed the host's
// caches on a line of their own; now P0-P7 and R0-R7 share a line and R8-R23 fill the next.
#include <array>
#include <cstdint>

#include "sim/time.hpp"
#include "traces/instruction.hpp"

namespace warpsim::models {

class Scoreboard {
 public:
  static constexpr int kRegisters = 264;  // R0..R254, RZ, P0..P7

  // Starts a new warp whose ready cycles are counted from `epoch` (no write lands before it).
  // Clears only the registers written since the last reset: a warp touches a handful of its
  // 264 entries, and wiping the whole array at every warp launch would drag it through the
  // host's caches (millions of launches in a large grid).
  void reset(sim::Cycle epoch) {
    for (std::size_t w = 0; w < written_.size(); ++w) {
      for (std::uint64_t bits = written_[w]; bits != 0; bits &= bits - 1)
        entry_[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))] = 0;
      written_[w] = 0;
    }
    epoch_ = epoch;
  }

  // Earliest cycle the instruction's operands are ready: its sources (read after write) and its
  // destinations (write after write: an in-order pipe must not reorder two writes); and whether
  // the operand that holds it back longest is written by a memory access (stall breakdown).
  // With no write pending past the epoch, `ready` is 0: callers only compare it with the present.
  struct Readiness {
    sim::Cycle ready = 0;
    bool memory = false;
  };
  Readiness readiness(const traces::Instruction& in) const {
    std::uint32_t latest = 0;  // the entry of the operand that lands last (the first such)
    auto consider = [&](traces::Reg reg) {
      if (reg >= kRegisters) return;  // absent operand (kNoReg)
      const std::uint32_t entry = entry_[entry_index(reg)];
      if ((entry >> 1) > (latest >> 1)) latest = entry;
    };
    for (int i = 0; i < in.src_count; ++i) consider(in.src[i]);
    for (int i = 0; i < in.dst_count; ++i) consider(in.dst[i]);
    if ((latest >> 1) == 0) return {};
    return {epoch_ + (latest >> 1), (latest & 1u) != 0};
  }
  sim::Cycle ready_cycle(const traces::Instruction& in) const { return readiness(in).ready; }
  bool blocked_by_memory(const traces::Instruction& in) const { return readiness(in).memory; }

  // Records the destinations of an issued instruction. A load of 8 or 16 bytes per lane writes
  // 2 or 4 consecutive registers, although traces name only the first.
  void write(const traces::Instruction& in, sim::Cycle ready, bool from_memory) {
    if (ready >= epoch_ + kMaxOffset) rebase(ready);
    const std::uint64_t offset = ready > epoch_ ? ready - epoch_ : 0;
    const std::uint32_t entry = static_cast<std::uint32_t>(offset << 1) | (from_memory ? 1u : 0u);
    const int span = (in.mem_op == traces::MemOp::Load && in.width > 4) ? in.width / 4 : 1;
    for (int i = 0; i < in.dst_count; ++i) {
      const traces::Reg r = in.dst[i];
      if (r >= kRegisters || r == traces::kRegRZ) continue;
      for (int k = 0; k < span && r + k < kRegisters; ++k) {
        const std::uint32_t e = entry_index(static_cast<traces::Reg>(r + k));
        entry_[e] = entry;
        written_[e / 64] |= std::uint64_t{1} << (e % 64);
      }
    }
  }

 private:
  static constexpr sim::Cycle kMaxOffset = sim::Cycle{1} << 31;  // offsets take 31 bits
  static constexpr std::uint32_t kPredicates = kRegisters - traces::predicate_reg(0);

  // Where register `reg` (< kRegisters) keeps its entry: P0-P7 first, then R0-R255.
  static std::uint32_t entry_index(traces::Reg reg) {
    const std::uint32_t shifted = std::uint32_t{reg} + kPredicates;
    return shifted >= kRegisters ? shifted - kRegisters : shifted;
  }

  // A write 2^31 cycles after the epoch (a warp alive for a second of GPU time): move the epoch
  // to 2^30 cycles before it. Entries older than the new epoch become 0, "landed": they lie in
  // the past already, which is all any comparison with them asks.
  void rebase(sim::Cycle ready) {
    const sim::Cycle epoch = ready - kMaxOffset / 2;
    for (std::size_t w = 0; w < written_.size(); ++w)
      for (std::uint64_t bits = written_[w]; bits != 0; bits &= bits - 1) {
        std::uint32_t& e = entry_[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))];
        const sim::Cycle cycle = epoch_ + (e >> 1);
        e = cycle > epoch ? static_cast<std::uint32_t>((cycle - epoch) << 1) | (e & 1u) : 0;
      }
    epoch_ = epoch;
  }

  // The epoch and the written bits (bit i: entry_[i]), which every issue reads or updates, share
  // the scoreboard's first host cache line; P0-P7 and R0-R7 fill the second, R8-R23 the third.
  // The SM prefetches all three (Sm::prefetch).
  alignas(64) sim::Cycle epoch_ = 0;
  std::array<std::uint64_t, (kRegisters + 63) / 64> written_{};  // registers to clear on reset
  alignas(64) std::array<std::uint32_t, kRegisters> entry_{};  // [entry_index]: (cycle - epoch_) << 1 | from memory
};

}  // namespace warpsim::models
