#pragma once
// What an SM hands to others while it ticks a window, held back when the SMs tick at once on
// several host threads (Gpu with threads > 1): the blocks it retires, for the GigaThread engine,
// and its warps' timeline records. Gpu::members_ticked hands them on SM by SM, in SM id order,
// before the GigaThread engine ticks, which is the order and the moment they reach it when the
// SMs tick one after another.
#include <cstdint>
#include <vector>

#include "models/core/sm.hpp"
#include "models/core/warp_timeline.hpp"

namespace warpsim::models {

class alignas(64) SmSideBuffers final : public BlockRetireListener {
 public:
  void on_block_retired(std::uint32_t sm, std::uint32_t block, std::uint32_t kernel_slot, sim::Cycle now) override {
    retired_.push_back({sm, block, kernel_slot, now});
  }
  WarpTimeline& timeline() { return timeline_; }

  // Hands on what the window gave, in the order the SM gave it.
  void hand_on(BlockRetireListener& listener, WarpTimeline* timeline) {
    for (const Retired& r : retired_) listener.on_block_retired(r.sm, r.block, r.kernel_slot, r.now);
    retired_.clear();
    if (timeline != nullptr) timeline->take_from(timeline_);
  }

 private:
  struct Retired {
    std::uint32_t sm, block, kernel_slot;
    sim::Cycle now;
  };
  std::vector<Retired> retired_;
  WarpTimeline timeline_;
};

}  // namespace warpsim::models
