#pragma once
// The memory accesses SMs make during one window of their tick group (gpu.cpp). Each SM ticks
// through a whole window before the next one starts, so an access to what the SMs share (L2,
// DRAM: MemorySystem::shared_state) cannot go to the memory system when it issues: a later SM's
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

class AccessLog {
 public:
  // An access issued at `issued`, inside the window that began at `window_begin`, after every
  // access added before it.
  DeferredAccess& add(sim::Cycle window_begin, sim::Cycle issued) {
    if (size_ == 0) begin_ = window_begin;
    const std::size_t at = static_cast<std::size_t>(issued - begin_);
    if (at >= by_cycle_.size()) by_cycle_.resize(at + 1);
    std::vector<DeferredAccess>& bucket = by_cycle_[at];
    bucket.emplace_back();
    ++size_;
    DeferredAccess& a = bucket.back();
    a.issued = issued;
    return a;
  }
  std::size_t size() const { return size_; }
  // Calls f(DeferredAccess&) for every access, in the memory system's order.
  template <class F>
  void for_each(F f) {
    for (std::vector<DeferredAccess>& bucket : by_cycle_)
      for (DeferredAccess& a : bucket) f(a);
  }
  void clear() {
    for (std::vector<DeferredAccess>& bucket : by_cycle_) bucket.clear();
    size_ = 0;
  }

 private:
  sim::Cycle begin_ = 0;
  std::size_t size_ = 0;
  std::vector<std::vector<DeferredAccess>> by_cycle_;  // [issued - begin]: in order of addition
};

}  // namespace warpsim::models
