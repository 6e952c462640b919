// The L2's line state: eviction classes and the persisting list (S4), dirty lines and their
// write-backs, and what the host does behind the cache (invalidate, flush). See l2_cache.hpp.
#include "models/memory/l2_cache.hpp"

#include <algorithm>

namespace warpsim::models::memory {

void L2Cache::apply_property(const SectorCache::Line& line, L2Hint property, sim::Cycle now) {
  const LineClass cls = cache_.line_class(line);
  switch (property) {
    case L2Hint::Persisting:
      if (cls == LineClass::Persisting) {
        list_remove(line.slot);  // most recently used persisting line
        list_push_front(line.slot);
      } else {
        make_persisting(line, now);
      }
      break;
    case L2Hint::Normal:  // S4.5: a Normal access resets a persisting line to normal
      if (cls == LineClass::Persisting) make_normal(line);
      else if (cls == LineClass::Streaming) cache_.set_line_class(line, LineClass::Normal);
      break;
    case L2Hint::Streaming:  // evict-first data that is hit keeps the class it earned
    case L2Hint::Default:    // outside every window: leaves the class alone
      break;
  }
}

void L2Cache::make_persisting(const SectorCache::Line& line, sim::Cycle now) {
  if (persist_capacity_lines_ == 0) return;  // no set-aside: the access behaves as normal
  if (persisting_lines_ >= persist_capacity_lines_) evict(cache_.line_at(tail_), now);  // S4.3: LRU among persisting
  cache_.set_line_class(line, LineClass::Persisting);
  list_push_front(line.slot);
  ++persisting_lines_;
}

void L2Cache::make_normal(const SectorCache::Line& line) {
  list_remove(line.slot);
  --persisting_lines_;
  cache_.set_line_class(line, LineClass::Normal);
}

void L2Cache::limit_dirty(std::uint32_t set, const SectorCache::Line& line, sim::Cycle now) {
  // Only normal and streaming lines count: persisting lines stay dirty in the set-aside
  // (persist_10MB.csv hitRatio 1.0 writes 268.9 MB, the streaming stores alone).
  if (dirty_lines_per_set_ == 0 || cache_.line_class(line) == LineClass::Persisting) return;
  SectorCache::Line oldest;
  if (cache_.dirty_lines(set, LineClass::Persisting, line, oldest) > dirty_lines_per_set_ && oldest.found()) {
    write_back(oldest, now);
    ++eager_write_backs_;
  }
}

void L2Cache::write_back(const SectorCache::Line& line, sim::Cycle now) {
  const std::uint8_t dirty = cache_.dirty_mask(line);
  if (dirty == 0) return;
  const std::uint64_t base = cache_.tag(line) * line_bytes_;
  if (write_back_fixed_ != 0) {
    // With ways set aside the H100 writes dirty lines back at a rate that falls with them, the
    // same whatever the order of the lines or the warps storing them (setaside_stores.csv; the
    // rate is not DRAM's): the write-back holds its home slice's port, so reads and stores there
    // wait behind it too (a copy takes the read and the write stream's time added up).
    const std::uint32_t slice = slice_of_set(line.slot / cache_.ways());
    const std::uint64_t start = std::max(now * kFrac, slice_free_[slice]);
    if (write_back_batch_ == 1) {
      slice_free_[slice] = start + write_back_fixed_;
    } else if (++write_backs_unpaid_[slice] == write_back_batch_) {
      // ... in batches: the slice stalls, hits included, for a whole batch's cost at once
      // (h200/slice_stalls.csv: an L2 hit waits up to ~2,700 cycles where a set-aside's
      // write-backs go, and not at all without dirty lines or without the set-aside).
      write_backs_unpaid_[slice] = 0;
      slice_free_[slice] = start + write_back_fixed_ * write_back_batch_;
    }
    now = (start + kFrac - 1) / kFrac;
  }
  // Read-modify-write of the sectors the stores wrote in part (l2_cache.hpp); merged, they stay
  // in L2 whole.
  const std::uint8_t partial = incomplete(line) & dirty;
  if (partial != 0) incomplete_[line.slot] &= static_cast<std::uint8_t>(~partial);
  for (std::uint32_t s = 0; s < cache_.sectors_per_line(); ++s) {
    if (!((dirty >> s) & 1u)) continue;
    const std::uint64_t address = base + std::uint64_t{s} * sector_bytes_;
    if ((partial >> s) & 1u) {
      dram_.read(address, sector_bytes_, now);
      ++partial_write_back_fills_;
    }
    write_back_taken_ = std::max(write_back_taken_, dram_.write(address, sector_bytes_, now));
  }
  cache_.clean(line);
}

void L2Cache::evict(const SectorCache::Line& line, sim::Cycle now) {
  write_back(line, now);
  drop(line);
}

void L2Cache::drop(const SectorCache::Line& line) {
  if (!incomplete_.empty()) incomplete_[line.slot] = 0;
  if (cache_.line_class(line) == LineClass::Persisting) {
    list_remove(line.slot);
    --persisting_lines_;
  }
  cache_.invalidate(line);
}

void L2Cache::list_remove(std::uint32_t slot) {
  const std::uint32_t p = prev_[slot], n = next_[slot];
  (p == kNil ? head_ : next_[p]) = n;
  (n == kNil ? tail_ : prev_[n]) = p;
  prev_[slot] = next_[slot] = kNil;
}

void L2Cache::list_push_front(std::uint32_t slot) {
  // Made when the first line persists: most runs have none, and an H100's list is 3 MB.
  if (prev_.empty()) {
    prev_.assign(cache_.line_count(), kNil);
    next_.assign(cache_.line_count(), kNil);
  }
  prev_[slot] = kNil;
  next_[slot] = head_;
  (head_ == kNil ? tail_ : prev_[head_]) = slot;
  head_ = slot;
}

void L2Cache::set_set_aside(std::uint64_t bytes) {
  persist_capacity_lines_ = bytes / line_bytes_;
  const std::uint64_t ways = (bytes + way_bytes_ - 1) / way_bytes_;
  const auto& by_ways = write_back_fixed_by_ways_;
  write_back_fixed_ = by_ways.empty() ? 0 : by_ways[std::min<std::uint64_t>(ways, by_ways.size() - 1)];
  while (persisting_lines_ > persist_capacity_lines_) make_normal(cache_.line_at(tail_));
}

void L2Cache::reset_persisting() {
  while (head_ != kNil) make_normal(cache_.line_at(head_));
}

std::uint64_t L2Cache::persisting_bytes_in(std::uint64_t base, std::uint64_t bytes) const {
  std::uint64_t lines = 0;
  for (std::uint32_t s = head_; s != kNil; s = next_[s]) {
    const std::uint64_t address = cache_.tag(cache_.line_at(s)) * line_bytes_;
    if (address >= base && address - base < bytes) ++lines;
  }
  return lines * line_bytes_;
}

void L2Cache::invalidate(std::uint64_t base, std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t first = base / line_bytes_, last = (base + bytes - 1) / line_bytes_;
  if (last - first + 1 >= cache_.line_count()) {
    // Every slot whose tag lies in the range: home lines and copies alike.
    for (std::uint32_t slot = 0; slot < cache_.line_count(); ++slot) {
      const SectorCache::Line line = cache_.line_at(slot);
      if (cache_.valid(line) && cache_.tag(line) >= first && cache_.tag(line) <= last) drop(line);
    }
    return;
  }
  for (std::uint64_t line_number = first; line_number <= last; ++line_number) {
    const Where w = locate(line_number * line_bytes_);
    for (std::uint32_t p = 0; p < partitions_; ++p) {
      const Where at = p == partition_of_slice(w.slice) ? w : copy_in(w, p);
      const SectorCache::Line line = cache_.find(at.set, at.line);
      if (line.found()) drop(line);
    }
  }
}

void L2Cache::flush(sim::Cycle now) {
  // Slice by slice, each slice's sets in order: the order of the write-backs sets their DRAM
  // times.
  for (std::uint32_t slice = 0; slice < slices_; ++slice)
    for (std::uint32_t index = 0; index < sets_per_slice_; ++index)
      for (std::uint32_t way = 0; way < cache_.ways(); ++way) {
        const SectorCache::Line line = cache_.line_at(set_in_slice(index, slice) * cache_.ways() + way);
        if (cache_.valid(line)) write_back(line, now);
      }
}

}  // namespace warpsim::models::memory
