// Sm: blocks arriving on the SM and leaving it, their warps taking and giving back warp slots, and
// the block barrier (S2.8). The issue path is sm.cpp; the counters and end-of-run books sm_books.cpp.
#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "models/core/sm.hpp"

namespace warpsim::models {

void Sm::release_block(std::uint32_t b) {
  Block& block = blocks_[b];
  block.active = false;
  used_blocks_ -= 1;
  used_threads_ -= block.footprint.threads;
  used_warps_ -= block.footprint.warps;
  used_registers_ -= block.footprint.registers;
  used_shared_ -= block.footprint.shared_bytes;
  ++counters_.blocks;
}

bool Sm::fits(const BlockFootprint& f) const {
  return used_blocks_ + 1 <= spec_.max_blocks && used_threads_ + f.threads <= spec_.max_threads &&
         used_warps_ + f.warps <= spec_.max_warps && used_registers_ + f.registers <= spec_.registers &&
         used_shared_ + f.shared_bytes <= spec_.shared_bytes;
}

void Sm::launch_block(std::uint32_t kernel_slot, const BlockFootprint& f,
                      std::vector<std::unique_ptr<traces::WarpStream>> streams, sim::Cycle start,
                      std::uint64_t block_id) {
  std::uint32_t b = 0;
  while (blocks_[b].active) ++b;  // fits() guaranteed a free block slot
  Block& block = blocks_[b];
  block = Block{};
  block.active = true;
  block.kernel_slot = kernel_slot;
  block.footprint = f;
  block.warps_total = static_cast<std::uint32_t>(streams.size());
  used_blocks_ += 1;
  used_threads_ += f.threads;
  used_warps_ += f.warps;
  used_registers_ += f.registers;
  used_shared_ += f.shared_bytes;
  block.start = start;
  block.id = block_id;
  block.arriving = std::move(streams);
  arrivals_.push_back(b);
  wake_at(start);
}

void Sm::arrive(std::uint32_t b, sim::Cycle now) {
  // The block's warps join the schedulers when they can first issue, not at dispatch: until
  // then the SM holds the block's resources (fits()) but has nothing of it to schedule, so what
  // an SM does before `start` never depends on a dispatch in between.
  Block& block = blocks_[b];
  std::vector<std::unique_ptr<traces::WarpStream>> streams = std::move(block.arriving);
  const sim::Cycle start = block.start;
  const std::uint32_t kernel_slot = block.kernel_slot;
  {
    // Where the warps will go is known up front, so the host lines the loop below reads first
    // (each slot's stream and scoreboard, cold since the slot's last warp left) load together
    // instead of one cache miss after another. A guess only if a warp retires at once below.
    ActiveMasks active = active_masks();
    std::uint32_t from = next_scheduler_;
    for (std::size_t k = 0; k < streams.size(); ++k) {
      const std::uint32_t slot = free_slot(active, from);
      active[slot / width_] |= std::uint64_t{1} << (slot % width_);
      from = (from + 1) % spec_.schedulers;
      __builtin_prefetch(&warps_[slot].stream);
      __builtin_prefetch(&warps_[slot].scoreboard);
    }
  }
  std::uint64_t launched = 0;
  for (auto& stream : streams) {
    const std::uint32_t slot = free_slot(active_masks(), next_scheduler_);
    const std::uint32_t s = slot / width_, i = slot % width_;
    next_scheduler_ = (next_scheduler_ + 1) % spec_.schedulers;
    warps_.prepare(slot);
    Warp& w = warps_[slot];
    w.stream.hold(std::move(stream));
    w.head = 0;
    w.count = 0;
    w.stream_done = false;
    // Warps of a block start one after another (dispatch.csv: a 32-warp block costs ~600 cycles).
    const sim::Cycle ready = start + std::uint64_t(dispatch_.warp_launch_interval_cycles) * launched++;
    w.scoreboard.reset(ready);
    w.started = ready;
    w.block_slot = b;
    w.kernel_slot = kernel_slot;
    w.index_in_block = static_cast<std::uint32_t>(launched - 1);
    if (timeline_ != nullptr) [[unlikely]] {
      if (load_data_.size() <= slot) load_data_.resize(slot + 1);
      load_data_[slot] = {WarpRecord::kNoData, WarpRecord::kNoData};
    }
    change_resident_warps(+1, now);
    sched_[s].active |= std::uint64_t{1} << i;
    sched_[s].at_barrier &= ~(std::uint64_t{1} << i);
    age_[slot] = warps_launched_++;
    set_head(s, i, ready, false, false);
    recheck(s, std::max(now, ready));
    if (!w.fill(buffer_depth_))
      retire_warp(s, i, now);  // a warp a trace recorded with no instructions
    else
      head_unit_[slot] = w.front().unit;
  }
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s)
    if (sched_[s].state == SchedulerState::Idle) set_state(s, SchedulerState::NoEligible, now);
  if (block.warps_finished == block.warps_total) block_exited(b, now);
}

void Sm::block_exited(std::uint32_t b, sim::Cycle now) {
  // The SM reports a block done block_retire_cycles after its last warp exits
  // (turnaround_blocks.csv.xz) and, with dispatch.block_waits_for_stores, not before its memory
  // operations have completed (Sm::tick); without, whatever answers come after.
  Block& block = blocks_[b];
  block.last_memory_ready = dispatch_.block_waits_for_stores
                                ? std::max(block.last_memory_ready, now + dispatch_.block_retire_cycles)
                                : now + dispatch_.block_retire_cycles;
  retire_queue_.push_back(b);
}

Sm::ActiveMasks Sm::active_masks() const {
  ActiveMasks active{};
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) active[s] = sched_[s].active;
  return active;
}

std::uint32_t Sm::free_slot(const ActiveMasks& active, std::uint32_t from) const {
  // Spread a block's warps over the schedulers, as consecutive warp ids are (S1.4): the first
  // free index of the first scheduler, from `from` on in turn, that has one.
  const std::uint64_t indices = per_scheduler_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << per_scheduler_) - 1;
  for (std::uint32_t tries = 0; tries < spec_.schedulers; ++tries) {
    const std::uint32_t s = (from + tries) % spec_.schedulers;
    const std::uint64_t free = ~active[s] & indices;  // indices: every warp index
    if (free != 0) return slot_of(s, static_cast<std::uint32_t>(__builtin_ctzll(free)));
  }
  throw std::logic_error(path() + ": no free warp slot, although fits() admitted the block");
}

void Sm::retire_warp(std::uint32_t s, std::uint32_t i, sim::Cycle now) {
  Warp& w = warps_[slot_of(s, i)];
  sched_[s].active &= ~(std::uint64_t{1} << i);
  ready_at_[slot_of(s, i)] = kNeverStamp;  // only runnable warps hold a stamp (sm.hpp)
  w.stream.reset();
  change_resident_warps(-1, now);
  charge(w.kernel_slot);
  Block& block = blocks_[w.block_slot];
  ++block.warps_finished;
  // Its warp-cycles are counted at its own exit, or when the block's last warp exits
  // (dispatch.warps_counted_to_block_end, SmCounters::warp_cycles).
  if (!dispatch_.warps_counted_to_block_end) {
    counters_.warp_cycles += now - std::min(w.started, now);
  } else {
    block.exited_warp_starts += std::min(w.started, now);
    if (block.warps_finished == block.warps_total)
      counters_.warp_cycles += std::uint64_t{block.warps_total} * now - block.exited_warp_starts;
  }
  if (timeline_ != nullptr) [[unlikely]] {
    const auto& data = load_data_[slot_of(s, i)];
    timeline_->add({w.kernel_slot, id_, w.index_in_block, block.id, w.started, now, data[0], data[1]});
  }
  release_barrier_if_complete(block, now);  // the warps still running may all be waiting
}

void Sm::arrive_at_barrier(Block& block, sim::Cycle now) {
  ++block.warps_at_barrier;
  release_barrier_if_complete(block, now);
}

void Sm::release_barrier_if_complete(Block& block, sim::Cycle now) {
  // S2.8: __syncthreads releases when every warp of the block that has not exited arrived.
  if (block.warps_at_barrier == 0 || block.warps_at_barrier < block.warps_total - block.warps_finished) return;
  block.warps_at_barrier = 0;
  const std::uint32_t b = static_cast<std::uint32_t>(&block - blocks_.data());
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) {
    Scheduler& m = sched_[s];
    for (std::uint64_t waiting = m.active & m.at_barrier; waiting != 0; waiting &= waiting - 1) {
      const std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctzll(waiting));
      const std::uint32_t slot = slot_of(s, i);
      Warp& w = warps_[slot];
      if (w.block_slot != b) continue;
      m.at_barrier &= ~(std::uint64_t{1} << i);
      w.released_at = now;
      const sim::Cycle ready = std::max(stamps_.cycle(barrier_ready_at_[slot]), now + 1);
      set_head(s, i, ready, w.scoreboard.ready_cycle(w.front()) > now + 1, false);
      recheck(s, now + 1);
      heads_changed_ = true;
    }
  }
}

}  // namespace warpsim::models
