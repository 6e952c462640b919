#pragma once
// An SM's warp slots, each constructed when a warp first takes it. A Warp is ~1.9 KB and an H100
// has 8,448 slots (16 MB): built all at once they were most of a small run's start-up, writing
// pages the run never used (a 26,601-instruction trace takes 8 or 16 slots of an SM's 64). The
// slots are zero pages left unwritten until a slot is taken. All SMs' slots share one arena
// (Gpu), on huge pages where it is large: a short run's few warps per SM still touch every SM's
// slots, ~1,000 pages of 4 KB at a fault each (several microseconds on a virtual machine), where
// an H100's 2 MiB pages take nine. The arena places each SM's slots after the last at a varied
// offset of its page, as the heap did (each SM's slots starting a page of its own made
// bench_core's fmaChain ~15% slower). Only a slot that has been prepared may be read through [].
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "models/core/warp.hpp"
#include "sim/zero_pages.hpp"

namespace warpsim::models {

class WarpSlots {
 public:
  // What `count` slots take of an arena's room.
  static std::size_t arena_bytes(std::size_t count) {
    return sim::ZeroPagesArena::reserved(count * sizeof(Warp), alignof(Warp));
  }
  // `arena` must outlive the slots and have arena_bytes(count) of room left.
  WarpSlots(std::size_t count, sim::ZeroPagesArena& arena)
      : slots_(count == 0 ? nullptr : static_cast<Warp*>(arena.take(count * sizeof(Warp), alignof(Warp)))),
        built_(std::make_unique<std::uint64_t[]>((count + 63) / 64)),
        count_(count) {}
  ~WarpSlots() {
    for (std::size_t slot = 0; slot < count_; ++slot)
      if (prepared(slot)) slots_[slot].~Warp();
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
