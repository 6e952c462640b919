// See l2_cache.hpp for the model and its assumptions.
#include "models/memory/l2_cache.hpp"

#include <algorithm>
#include <string>

#include "sim/rng.hpp"

namespace warpsim::models::memory {
namespace {

SectorCacheGeometry l2_geometry(const Arch& arch) {
  const std::uint32_t slices = std::max<std::uint32_t>(1, arch.l2_slices);
  const std::uint64_t sets_per_slice =
      std::max<std::uint64_t>(1, arch.l2_bytes / slices / arch.l2_line_bytes / std::max<std::uint32_t>(1, arch.l2_ways));
  return SectorCacheGeometry{sets_per_slice * slices * arch.l2_line_bytes * arch.l2_ways, arch.l2_line_bytes,
                             arch.l2_sector_bytes, arch.l2_ways};
}

}  // namespace

L2Cache::L2Cache(const Arch& arch, DramSystem& dram, sim::StatsRegistry& stats)
    : dram_(dram),
      cache_(l2_geometry(arch)),
      slices_(std::max<std::uint32_t>(1, arch.l2_slices)),
      line_bytes_(arch.l2_line_bytes),
      sector_bytes_(arch.l2_sector_bytes),
      hit_latency_(arch.l2_hit_latency),
      dirty_lines_per_set_(arch.l2_dirty_lines_per_set),
      fill_partial_writes_(arch.l2_fill_partial_writes),
      salt_(sim::mix64(sim::hash_path("gpu.l2.slice_hash"))) {
  sets_per_slice_ = cache_.sets() / slices_;
  sectors_per_fetch_ = std::clamp<std::uint32_t>(kDramFetchBytes / sector_bytes_, 1, cache_.sectors_per_line());
  const std::uint32_t per_cycle = std::max<std::uint32_t>(1, arch.l2_bytes_per_cycle_per_slice);
  slice_service_fixed_ = std::max<std::uint64_t>(1, std::uint64_t{sector_bytes_} * kFrac / per_cycle);
  slice_free_.assign(slices_, 0);
  slice_hits_.assign(slices_, 0);
  slice_lookups_.assign(slices_, 0);
  prev_.assign(cache_.line_count(), kNil);
  next_.assign(cache_.line_count(), kNil);
  for (std::uint32_t s = 0; s < slices_; ++s) {
    const std::string prefix = "gpu.l2.slice" + std::to_string(s);
    stats.add(prefix + ".hits", slice_hits_[s], "sectors", "L2 sector lookups of this slice that hit");
    stats.add(prefix + ".lookups", slice_lookups_[s], "sectors", "L2 sector lookups of this slice");
  }
}

std::uint32_t L2Cache::slice_of(std::uint64_t line_number) const {
  // Consecutive lines go to consecutive slices, rotated per group of `slices_` lines by a hash:
  // a stream spreads evenly and power-of-two strides do not pile onto one slice.
  const std::uint64_t group = line_number / slices_;
  return static_cast<std::uint32_t>((line_number + sim::mix64(group ^ salt_)) % slices_);
}

L2Cache::Where L2Cache::locate(std::uint64_t address) const {
  const std::uint64_t line = cache_.line_of(address);
  const std::uint32_t slice = slice_of(line);
  const std::uint32_t set = slice * sets_per_slice_ + static_cast<std::uint32_t>((line / slices_) % sets_per_slice_);
  return Where{line, set, slice, cache_.sector_of(address)};
}

L2Cache::Where L2Cache::locate_memo(std::uint64_t address) {
  const std::uint64_t line = cache_.line_of(address);
  if (line != memo_where_.line) memo_where_ = locate(address);
  Where w = memo_where_;
  w.sector = cache_.sector_of(address);
  return w;
}

sim::Cycle L2Cache::occupy_slice(std::uint32_t slice, sim::Cycle now) {
  const std::uint64_t start = std::max(now * kFrac, slice_free_[slice]);
  slice_free_[slice] = start + slice_service_fixed_;
  return (start + kFrac - 1) / kFrac;
}

sim::Cycle L2Cache::read(std::uint64_t address, sim::Cycle now, L2Hint property, bool& hit) {
  const Where w = locate_memo(address);
  sim::Cycle ready[SectorCache::kMaxSectorsPerLine];
  hit = read_sectors(address - address % line_bytes_, 1u << w.sector, now, property, ready) != 0;
  return ready[w.sector];
}

std::uint32_t L2Cache::read_sectors(std::uint64_t line_address, std::uint32_t sectors, sim::Cycle now,
                                    L2Hint property, sim::Cycle* ready) {
  Where w = locate_memo(line_address);
  const auto count = static_cast<std::uint32_t>(__builtin_popcount(sectors));
  lookups_ += count;
  slice_lookups_[w.slice] += count;
  SectorCache::Line line;
  std::uint32_t hits = 0;
  for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
    w.sector = static_cast<std::uint32_t>(__builtin_ctz(bits));
    const sim::Cycle t = occupy_slice(w.slice, now);
    // The first sector finds or allocates the line and applies the property; for the others
    // the line is there with that property already (only its LRU stamp would move again, and
    // LRU order among lines is the same either way).
    if (!line.found()) line = line_for(w, property, t);
    if (cache_.sector_valid(line, w.sector)) {
      const sim::Cycle hit_ready = t + hit_latency_, fill_ready = cache_.sector_ready(line, w.sector);
      if (fill_ready <= hit_ready) ++hits;  // a fill still under way is a miss
      ready[w.sector] = std::max(hit_ready, fill_ready);
    } else {
      ready[w.sector] = fetch(w, line, t);
    }
  }
  hits_ += hits;
  slice_hits_[w.slice] += hits;
  return hits;
}

sim::Cycle L2Cache::fetch(const Where& w, const SectorCache::Line& line, sim::Cycle now) {
  // Fetch the aligned group of sectors DRAM moves at once; sectors already valid keep theirs.
  const std::uint32_t first = w.sector / sectors_per_fetch_ * sectors_per_fetch_;
  const std::uint32_t group = ((1u << sectors_per_fetch_) - 1) << first;
  const std::uint32_t missing = (group & ~std::uint32_t{cache_.valid_mask(line)}) | (1u << w.sector);
  const std::uint64_t line_base = w.line * line_bytes_;
  const sim::Cycle ready = dram_.read(line_base + std::uint64_t{first} * sector_bytes_,
                                      static_cast<std::uint32_t>(__builtin_popcount(missing)) * sector_bytes_, now);
  cache_.fill_sectors(line, missing, ready);
  return ready;
}

sim::Cycle L2Cache::write(std::uint64_t address, sim::Cycle now, L2Hint property, bool partial) {
  const std::uint32_t sector = locate_memo(address).sector;
  return write_sectors(address - address % line_bytes_, 1u << sector, partial ? 1u << sector : 0, now, property);
}

sim::Cycle L2Cache::write_sectors(std::uint64_t line_address, std::uint32_t sectors, std::uint32_t partial,
                                  sim::Cycle now, L2Hint property) {
  Where w = locate_memo(line_address);
  const auto count = static_cast<std::uint32_t>(__builtin_popcount(sectors));
  lookups_ += count;
  slice_lookups_[w.slice] += count;
  hits_ += count;  // write-validate: never waits for DRAM (see the header)
  slice_hits_[w.slice] += count;
  SectorCache::Line line;
  sim::Cycle acknowledged = now;
  for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
    w.sector = static_cast<std::uint32_t>(__builtin_ctz(bits));
    const sim::Cycle t = occupy_slice(w.slice, now);
    if (!line.found()) line = line_for(w, property, t);  // as in read_sectors: once per line
    const bool valid = cache_.sector_valid(line, w.sector);
    if ((partial >> w.sector & 1u) && fill_partial_writes_ && !valid) {
      // ECC fill (header): the store merges into the sector when the fill lands; the SM does
      // not wait for it (the store is acknowledged as usual).
      fetch(w, line, t);
      ++partial_write_fills_;
    } else {
      const sim::Cycle pending = valid ? cache_.sector_ready(line, w.sector) : 0;
      cache_.fill_sector(line, w.sector, std::max(pending, t));
    }
    const bool was_dirty = cache_.dirty_mask(line) != 0;
    cache_.mark_dirty(line, w.sector);
    if (!was_dirty) limit_dirty(w.set, line, t);
    acknowledged = std::max(acknowledged, t + hit_latency_);
  }
  return acknowledged;
}

SectorCache::Line L2Cache::line_for(const Where& w, L2Hint property, sim::Cycle now) {
  // A line number is never the invalid tag, so a matching tag is a valid line.
  SectorCache::Line line =
      memo_line_.found() && cache_.tag(memo_line_) == w.line ? memo_line_ : cache_.find(w.set, w.line);
  if (line.found()) {
    cache_.touch(line);
    apply_property(line, property, now);
    memo_line_ = line;
    return line;
  }
  line = cache_.victim(w.set);
  if (cache_.valid(line)) evict(line, now);
  cache_.install(line, w.line, property == L2Hint::Streaming ? LineClass::Streaming : LineClass::Normal);
  if (property == L2Hint::Persisting) make_persisting(line, now);
  memo_line_ = line;
  return line;
}

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
  for (std::uint32_t s = 0; s < cache_.sectors_per_line(); ++s)
    if ((dirty >> s) & 1u) dram_.write(base + std::uint64_t{s} * sector_bytes_, sector_bytes_, now);
  cache_.clean(line);
}

void L2Cache::evict(const SectorCache::Line& line, sim::Cycle now) {
  write_back(line, now);
  drop(line);
}

void L2Cache::drop(const SectorCache::Line& line) {
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
  prev_[slot] = kNil;
  next_[slot] = head_;
  (head_ == kNil ? tail_ : prev_[head_]) = slot;
  head_ = slot;
}

void L2Cache::set_set_aside(std::uint64_t bytes) {
  persist_capacity_lines_ = bytes / line_bytes_;
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

bool L2Cache::contains(std::uint64_t address) const {
  const Where w = locate(address);
  const SectorCache::Line line = cache_.find(w.set, w.line);
  return line.found() && cache_.sector_valid(line, w.sector);
}

void L2Cache::invalidate(std::uint64_t base, std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t first = base / line_bytes_, last = (base + bytes - 1) / line_bytes_;
  if (last - first + 1 >= cache_.line_count()) {
    for (std::uint32_t slot = 0; slot < cache_.line_count(); ++slot) {
      const SectorCache::Line line = cache_.line_at(slot);
      if (cache_.valid(line) && cache_.tag(line) >= first && cache_.tag(line) <= last) drop(line);
    }
    return;
  }
  for (std::uint64_t line_number = first; line_number <= last; ++line_number) {
    const Where w = locate(line_number * line_bytes_);
    const SectorCache::Line line = cache_.find(w.set, w.line);
    if (line.found()) drop(line);
  }
}

void L2Cache::flush(sim::Cycle now) {
  for (std::uint32_t slot = 0; slot < cache_.line_count(); ++slot) {
    const SectorCache::Line line = cache_.line_at(slot);
    if (cache_.valid(line)) write_back(line, now);
  }
}

}  // namespace warpsim::models::memory
