#pragma once
// The memory accesses SMs make during one window of their tick group (gpu.cpp). Each SM ticks
// through a whole window before the next one starts (or at the same time as the others, on
// several host threads), so an access to what the SMs share (L2, DRAM:
// MemorySystem::shared_state) cannot go to the memory system when it issues: a later SM's
// earlier access would reach it after. They wait here and go when the window closes, in the
// order a cycle-by-cycle run gives them: by cycle, then by SM (the SMs tick in id order), then
// in issue order within the SM's cycle. The answers go back to the SMs then (Sm::answer); the
// window is no longer than the memory system's shortest answer, so no SM needs one sooner.
#include <cstdint>
#include <cstring>
#include <vector>

#include "models/memory/coalescer.hpp"
#include "sim/time.hpp"
#include "traces/instruction.hpp"

namespace warpsim::models {

struct DeferredAccess {
  // Left unset until add()'s caller fills it: zeroing 300 bytes per access costs as much as
  // copying the instruction in.
  DeferredAccess() {}  // NOLINT: deliberately not = default (no value-initialization)

  traces::Instruction inst;  // a copy: the warp's instruction buffer is refilled at its next fetch
  memory::ByteRange range;   // its lanes' bytes when contiguous (MemorySystem::coalesce); then
                             // inst's addresses are not copied
  sim::Cycle issued;
  std::uint32_t sm, kernel_slot, warp_slot, block;
  sim::Cycle ready;  // the memory system's answer, once the window has closed

  // Copies the instruction's fields and, unless `lanes_range` (its contiguous byte range, or
  // empty) stands for them, the addresses of its lanes up to the last active one (the others
  // are never read).
  void take(const traces::Instruction& in, const memory::ByteRange& lanes_range) {
    static_cast<traces::InstructionHead&>(inst) = in;
    range = lanes_range;
    if (!range.empty()) return;
    // Uniform and lane-linear instructions have one address written: the first active lane's.
    const int lanes = in.uniform_address || in.lane_linear ? __builtin_ctz(in.active_mask) + 1
                                                           : 32 - __builtin_clz(in.active_mask);
    std::memcpy(inst.addr.data(), in.addr.data(), sizeof(std::uint64_t) * static_cast<std::size_t>(lanes));
  }
};

// One SM's accesses of a window, in issue order (so by cycle: the SM ticks in cycle order). Each
// SM has its own, so SMs that tick at once on different host threads never share one; the
// window's accesses go to the memory system in the order put_in_order() gives.
class alignas(64) AccessLog {  // a host line each: SMs on different threads add to theirs
 public:
  // An access issued at `issued` (inside the window being ticked), after every access added
  // before it.
  DeferredAccess& add(sim::Cycle issued) {
    accesses_.emplace_back();
    DeferredAccess& a = accesses_.back();
    a.issued = issued;
    return a;
  }
  std::size_t size() const { return accesses_.size(); }
  bool empty() const { return accesses_.empty(); }
  DeferredAccess* begin() { return accesses_.data(); }
  DeferredAccess* end() { return accesses_.data() + accesses_.size(); }
  void clear() { accesses_.clear(); }

 private:
  std::vector<DeferredAccess> accesses_;
};

// The accesses of `logs` (the SMs' logs in SM id order) of the window [begin, begin + window)
// in the order a cycle-by-cycle run makes them: by cycle, then by SM, then in issue order. A
// counting sort by cycle, stable, over the logs taken in SM order. `counts` is scratch.
inline void put_in_order(std::vector<AccessLog>& logs, sim::Cycle begin, sim::Cycle window,
                         std::vector<std::size_t>& counts, std::vector<DeferredAccess*>& out) {
  counts.assign(static_cast<std::size_t>(window) + 1, 0);
  std::size_t total = 0;
  for (AccessLog& log : logs) {
    total += log.size();
    for (const DeferredAccess& a : log) ++counts[static_cast<std::size_t>(a.issued - begin) + 1];
  }
  for (std::size_t c = 1; c < counts.size(); ++c) counts[c] += counts[c - 1];  // where each cycle starts
  out.resize(total);
  for (AccessLog& log : logs)
    for (DeferredAccess& a : log) out[counts[static_cast<std::size_t>(a.issued - begin)]++] = &a;
}

}  // namespace warpsim::models
