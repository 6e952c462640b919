#pragma once
// An SM's warp slots, each constructed when a warp first takes it. A Warp is ~1.8 KB and an H100
// has 8,448 slots (15 MB): built all at once they were most of a small run's start-up, writing
// pages the run never used (a 26,601-instruction trace takes 12 slots of an SM's 64). The slots
// are heap memory left unwritten until a slot is taken, so the host maps its pages as they are
// first written and a run pays, in time and memory, for the slots it uses. (Mapped pages of
// their own, each SM's slots starting a page, made bench_core's fmaChain ~15% slower than heap
// blocks at varied offsets.) Only a slot that has been prepared may be read through [].
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "models/core/warp.hpp"

namespace warpsim::models {

class WarpSlots {
 public:
  explicit WarpSlots(std::size_t count)
      : slots_(count == 0 ? nullptr : static_cast<Warp*>(::operator new(count * sizeof(Warp), std::align_val_t{alignof(Warp)}))),
        built_(std::make_unique<std::uint64_t[]>((count + 63) / 64)),
        count_(count) {}
  ~WarpSlots() {
    for (std::size_t slot = 0; slot < count_; ++slot)
      if (prepared(slot)) slots_[slot].~Warp();
    if (slots_ != nullptr) ::operator delete(slots_, std::align_val_t{alignof(Warp)});
  }
  WarpSlots(const WarpSlots&) = delete;
  WarpSlots& operator=(const WarpSlots&) = delete;

  // Constructs the slot's warp if no warp has taken the slot before.
  void prepare(std::size_t slot) {
    if (prepared(slot)) return;
    ::new (static_cast<void*>(slots_ + slot)) Warp();
    built_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  bool prepared(std::size_t slot) const { return (built_[slot / 64] >> (slot % 64)) & 1u; }

  Warp& operator[](std::size_t slot) { return slots_[slot]; }
  const Warp& operator[](std::size_t slot) const { return slots_[slot]; }
  std::size_t size() const { return count_; }

 private:
  // Three words, as the std::vector it replaces: the Sm members after it keep their host lines.
  Warp* slots_;
  std::unique_ptr<std::uint64_t[]> built_;  // bit per slot: constructed
  std::size_t count_;
};

}  // namespace warpsim::models
