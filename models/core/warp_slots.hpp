#pragma once
// An SM's warp slots, each constructed when a warp first takes it. A Warp is ~1.8 KB and an H100
// has 8,448 slots (15 MB): built all at once they were most of a small run's start-up, writing
// pages the run never used (a 26,601-instruction trace takes 12 slots of an SM's 64). The slots
// live in zero pages the host maps as they are first written, so a run pays, in time and
// memory, for the slots it uses. Only a slot that has been prepared may be read through [].
#include <cstddef>
#include <new>
#include <vector>

#include "models/core/warp.hpp"
#include "sim/zero_pages.hpp"

namespace warpsim::models {

class WarpSlots {
 public:
  explicit WarpSlots(std::size_t count) : count_(count), bytes_(count * sizeof(Warp)), built_(count, false) {
    if (bytes_ == 0) return;
    static_assert(alignof(Warp) <= 4096, "slots are page-aligned");
    slots_ = static_cast<Warp*>(sim::map_zero_pages(bytes_, false));
  }
  ~WarpSlots() {
    for (std::size_t slot = 0; slot < count_; ++slot)
      if (built_[slot]) slots_[slot].~Warp();
    sim::unmap_zero_pages(slots_, bytes_, false);
  }
  WarpSlots(const WarpSlots&) = delete;
  WarpSlots& operator=(const WarpSlots&) = delete;

  // Constructs the slot's warp if no warp has taken the slot before.
  void prepare(std::size_t slot) {
    if (built_[slot]) return;
    ::new (static_cast<void*>(slots_ + slot)) Warp();
    built_[slot] = true;
  }
  bool prepared(std::size_t slot) const { return built_[slot]; }

  Warp& operator[](std::size_t slot) { return slots_[slot]; }
  const Warp& operator[](std::size_t slot) const { return slots_[slot]; }
  std::size_t size() const { return count_; }

 private:
  std::size_t count_;
  std::size_t bytes_;
  Warp* slots_ = nullptr;
  std::vector<bool> built_;
};

}  // namespace warpsim::models
