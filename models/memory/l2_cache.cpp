// The L2's lookups: where a line lives, reads and writes through the partitions, DRAM fills.
// See l2_cache.hpp for the model and its evidence; l2_line_state.cpp keeps the lines' classes,
// dirty state and persisting list.
#include "models/memory/l2_cache.hpp"

#include <algorithm>
#include <string>

#include "sim/rng.hpp"

namespace warpsim::models::memory {
namespace {

SectorCacheGeometry l2_geometry(const L2Spec& spec) {
  const std::uint32_t slices = std::max<std::uint32_t>(1, spec.slices);
  const std::uint64_t sets_per_slice =
      std::max<std::uint64_t>(1, spec.size_bytes / slices / spec.line_bytes / std::max<std::uint32_t>(1, spec.ways));
  return SectorCacheGeometry{sets_per_slice * slices * spec.line_bytes * spec.ways, spec.line_bytes,
                             spec.sector_bytes, spec.ways, spec.replacement, spec.clean_victims_first};
}

std::uint32_t popcount(std::uint32_t bits) { return static_cast<std::uint32_t>(__builtin_popcount(bits)); }

}  // namespace

L2Cache::L2Cache(const L2Spec& spec, std::uint64_t core_clock_khz, DramModel& dram, sim::StatsRegistry& stats)
    : dram_(dram),
      cache_(l2_geometry(spec)),
      slices_(std::max<std::uint32_t>(1, spec.slices)),
      line_bytes_(spec.line_bytes),
      sector_bytes_(spec.sector_bytes),
      partitions_(std::max<std::uint32_t>(1, spec.partitions)),
      hit_latency_(spec.hit_latency),
      far_latency_(spec.far_latency),
      launch_lookups_(spec.launch_lookups),
      launch_hits_(spec.launch_lookup_hits),
      dirty_lines_per_set_(spec.dirty_lines_per_set),
      fill_partial_writes_(spec.fill_partial_writes),
      fill_partial_write_backs_(spec.fill_partial_write_backs),
      salt_(sim::mix64(sim::hash_path("gpu.l2.slice_hash"))) {
  sets_per_slice_ = cache_.sets() / slices_;
  way_bytes_ = std::max<std::uint64_t>(1, spec.size_bytes / std::max<std::uint32_t>(1, spec.ways));
  slice_pieces_ = spec.slice_pieces;
  write_back_batch_ = std::max<std::uint32_t>(1, spec.set_aside_write_back_batch);
  for (double cycles : spec.set_aside_write_back_cycles)
    write_back_fixed_by_ways_.push_back(static_cast<std::uint64_t>(cycles * kFrac + 0.5));
  slices_per_partition_ = std::max<std::uint32_t>(1, slices_ / partitions_);
  sectors_per_fetch_ = std::clamp<std::uint32_t>(kDramFetchBytes / sector_bytes_, 1, cache_.sectors_per_line());
  const std::uint32_t per_cycle = std::max<std::uint32_t>(1, spec.bytes_per_cycle_per_slice);
  slice_service_fixed_ = std::max<std::uint64_t>(1, std::uint64_t{sector_bytes_} * kFrac / per_cycle);
  // A lookup that moves no data (a miss forwarded to another partition) takes a tag slot only:
  // l2.lookups_per_cycle at the L2's own clock, in core cycles.
  const double lookup_cycles = double(core_clock_khz) / double(std::max<std::uint64_t>(1, spec.clock_khz)) /
                               std::max<std::uint32_t>(1, spec.lookups_per_cycle);
  slice_lookup_fixed_ = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(lookup_cycles * kFrac));
  const double l2_to_core = double(core_clock_khz) / double(std::max<std::uint64_t>(1, spec.clock_khz));
  request_fixed_ = static_cast<std::uint64_t>(spec.request_cycles * l2_to_core * kFrac + 0.5);
  input_free_.assign(slices_, 0);
  slice_free_.assign(slices_, 0);
  if (write_back_batch_ > 1) write_backs_unpaid_.assign(slices_, 0);
  slice_hits_.assign(slices_, 0);
  slice_lookups_.assign(slices_, 0);
  for (std::uint32_t s = 0; s < slices_; ++s) {
    const std::string prefix = "gpu.l2.slice" + std::to_string(s);
    stats.add(prefix + ".hits", slice_hits_[s], "sectors", "L2 sector lookups of this slice that hit");
    stats.add(prefix + ".lookups", slice_lookups_[s], "sectors", "L2 sector lookups of this slice");
  }
}

std::uint32_t L2Cache::slice_of(std::uint64_t line_number) const {
  return slice_pieces_ ? piece_of(line_number).slice : consecutive_slice_of(line_number);
}

std::uint32_t L2Cache::consecutive_slice_of(std::uint64_t line_number) const {
  // Consecutive lines go to consecutive slices, rotated per group of `slices_` lines by a hash:
  // a stream spreads evenly and power-of-two strides do not pile onto one slice.
  const std::uint64_t group = line_number / slices_;
  return static_cast<std::uint32_t>((line_number + sim::mix64(group ^ salt_)) % slices_);
}

L2Cache::Piece L2Cache::piece_of(std::uint64_t line_number) const {
  // The 4 KB blocks of one aligned run of `partitions_` blocks go to different partitions (the
  // H200's halves: each aligned 8 KB split between them, h200/l2_partition_lines.csv.xz), in an
  // order hashed per run; in its partition, block k's eight groups of four lines {b, b+1, b+4,
  // b+5} (h200/l2_slice_pairs.csv.xz) take slices 8k to 8k + 7, counted round its slices and
  // rotated per round of that many blocks by a hash: eight different slices a block, and every
  // slice the same share of a stream. (The H200's blocks share slices where this rotation keeps
  // them apart: h200/l2_slice_blocks.csv.xz, docs/model.md "The H200's slice map in the model".)
  const std::uint64_t block = line_number >> 5, run = block / partitions_;
  const std::uint64_t group = ((line_number >> 3) & 3) << 1 | ((line_number >> 1) & 1);
  const std::uint64_t partition = (block + sim::mix64(run ^ ~salt_)) % partitions_;
  const std::uint64_t p = slices_per_partition_, round = run / p, within = (run % p) * 8 + group;
  const std::uint64_t slice = (within + sim::mix64(round ^ salt_)) % p;
  // Its sets: a round gives each slice 8 groups of four lines (within / p tells them apart).
  const std::uint64_t index = round * 32 + within / p * 4 + ((line_number & 1) | ((line_number >> 1) & 2));
  return Piece{static_cast<std::uint32_t>(partition * p + slice), index};
}

L2Cache::Where L2Cache::locate(std::uint64_t address) const {
  const std::uint64_t line = cache_.line_of(address);
  // A slice's lines take its sets in turn (with l2.slice_pieces a group's four side by side).
  const Piece at = slice_pieces_ ? piece_of(line) : Piece{consecutive_slice_of(line), line / slices_};
  return Where{line, set_in_slice(static_cast<std::uint32_t>(at.set_index % sets_per_slice_), at.slice), at.slice,
               cache_.sector_of(address)};
}

L2Cache::Where L2Cache::locate_memo(std::uint64_t address) {
  const std::uint64_t line = cache_.line_of(address);
  if (line != memo_where_.line) memo_where_ = locate(address);
  Where w = memo_where_;
  w.sector = cache_.sector_of(address);
  return w;
}

sim::Cycle L2Cache::occupy_slice(std::uint32_t slice, sim::Cycle now, bool data) {
  const std::uint64_t start = std::max(now * kFrac, slice_free_[slice]);
  slice_free_[slice] = start + (data ? slice_service_fixed_ : slice_lookup_fixed_);
  return (start + kFrac - 1) / kFrac;
}

sim::Cycle L2Cache::read(std::uint64_t address, sim::Cycle now, L2Hint property, std::uint32_t partition, bool& hit) {
  const Where w = locate_memo(address);
  sim::Cycle ready[SectorCache::kMaxSectorsPerLine];
  hit = read_sectors(address - address % line_bytes_, 1u << w.sector, now, property, partition, ready) != 0;
  return ready[w.sector];
}

std::uint32_t L2Cache::read_sectors(std::uint64_t line_address, std::uint32_t sectors, sim::Cycle now,
                                    L2Hint property, std::uint32_t partition, sim::Cycle* ready) {
  const Where w = locate_memo(line_address);
  if (partitions_ > 1 && partition != partition_of_slice(w.slice))
    return read_near(w, sectors, now, property, partition, ready);
  std::uint32_t fetched = 0;
  return read_home(w, sectors, enter_slice(w.slice, now), property, 0, ready, fetched);
}

std::uint32_t L2Cache::read_home(const Where& home, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                                 sim::Cycle extra, sim::Cycle* ready, std::uint32_t& fetched) {
  Where w = home;
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
      if (!(fetched >> w.sector & 1u)) ++hits;  // present, or another request's fill under way
      ready[w.sector] = std::max(t + hit_latency_, cache_.sector_ready(line, w.sector)) + extra;
    } else {
      sim::Cycle arrives = 0;
      fetched |= fetch(w, line, t, arrives);
      ready[w.sector] = arrives + extra;
    }
  }
  count_lookups(w.slice, popcount(sectors), hits);
  if (extra > 0) forwarded_ += popcount(sectors);
  return hits;
}

std::uint32_t L2Cache::read_near(const Where& home, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                                 std::uint32_t near, sim::Cycle* ready) {
  const Where at = copy_in(home, near);
  now = enter_slice(at.slice, now);
  SectorCache::Line copy = cache_.find(at.set, at.line);
  if (copy.found()) cache_.touch(copy);
  std::uint32_t hits = 0, fetched = 0;
  bool forwarded = false;  // the sectors missed here go home as one request (ltcfabric), in at `home_in`
  sim::Cycle home_in = 0;
  for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
    const auto s = static_cast<std::uint32_t>(__builtin_ctz(bits));
    const bool found = copy.found() && cache_.sector_valid(copy, s);
    const sim::Cycle t = occupy_slice(at.slice, now, found);  // a miss here moves no data: a tag lookup only
    count_lookups(at.slice, 1, found ? 1 : 0);
    if (found) {
      ++hits;
      ready[s] = std::max(t + hit_latency_, cache_.sector_ready(copy, s));
      continue;
    }
    // Forwarded home as soon as it missed here; the answer fills the copy on its way back.
    if (!forwarded) home_in = enter_slice(home.slice, t), forwarded = true;
    hits += read_home(home, 1u << s, std::max(t, home_in), property, far_latency_, ready, fetched);
    if (!copy.found()) copy = install_copy(at, property, t);
    cache_.fill_sector(copy, s, ready[s]);
  }
  return hits;
}

SectorCache::Line L2Cache::install_copy(const Where& at, L2Hint property, sim::Cycle now) {
  const SectorCache::Line line = cache_.victim(at.set);
  if (cache_.valid(line)) evict(line, now);
  if (memo_line_.slot == line.slot) memo_line_ = SectorCache::Line{};  // the memo holds home lines only
  cache_.install(line, at.line, property == L2Hint::Streaming ? LineClass::Streaming : LineClass::Normal);
  return line;
}

std::uint32_t L2Cache::fetch(const Where& w, const SectorCache::Line& line, sim::Cycle now, sim::Cycle& ready) {
  // Fetch the aligned group of sectors DRAM moves at once; sectors already valid keep theirs.
  const std::uint32_t first = w.sector / sectors_per_fetch_ * sectors_per_fetch_;
  const std::uint32_t group = ((1u << sectors_per_fetch_) - 1) << first;
  const std::uint32_t missing = (group & ~std::uint32_t{cache_.valid_mask(line)}) | (1u << w.sector);
  const std::uint64_t line_base = w.line * line_bytes_;
  ready = dram_.read(line_base + std::uint64_t{first} * sector_bytes_, popcount(missing) * sector_bytes_, now);
  cache_.fill_sectors(line, missing, ready);
  return missing;
}

sim::Cycle L2Cache::write(std::uint64_t address, sim::Cycle now, L2Hint property, std::uint32_t partition,
                          bool partial) {
  const std::uint32_t sector = locate_memo(address).sector;
  return write_sectors(address - address % line_bytes_, 1u << sector, partial ? 1u << sector : 0, now, property,
                       partition);
}

sim::Cycle L2Cache::write_sectors(std::uint64_t line_address, std::uint32_t sectors, std::uint32_t partial,
                                  sim::Cycle now, L2Hint property, std::uint32_t partition,
                                  const std::uint32_t* written_bytes) {
  Where w = locate_memo(line_address);
  // A store from another partition passes that partition's copy on its way home (l2.far_latency
  // more); every store drops the copies of sectors it writes in partitions other than its own.
  const bool forwarded = partitions_ > 1 && partition != partition_of_slice(w.slice);
  const sim::Cycle extra = forwarded ? far_latency_ : 0;
  Where at{};
  SectorCache::Line copy;
  if (forwarded) {
    at = copy_in(w, partition);
    now = enter_slice(at.slice, now);
    copy = cache_.find(at.set, at.line);
    // The near lookup counts as a hit whether or not it holds a copy (l2_semantics: cold stores
    // hit in both halves).
    count_lookups(at.slice, popcount(sectors), popcount(sectors));
    forwarded_ += popcount(sectors);
  }
  if (partitions_ > 1) drop_copies(w, sectors, partition);
  // Write-validate (see the header): a store never waits for DRAM and counts as a hit.
  count_lookups(w.slice, popcount(sectors), popcount(sectors));
  SectorCache::Line line;
  sim::Cycle acknowledged = now;
  write_back_taken_ = 0;
  bool entered = false;  // the request has come into its home slice (enter_slice), at `home_in`
  sim::Cycle home_in = 0;
  for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
    w.sector = static_cast<std::uint32_t>(__builtin_ctz(bits));
    sim::Cycle from = now;
    if (forwarded) from = write_through_copy(at, copy, w.sector, (partial >> w.sector & 1u) != 0, now);
    if (!entered) home_in = enter_slice(w.slice, from), entered = true;
    const sim::Cycle t = occupy_slice(w.slice, std::max(from, home_in));
    if (!line.found()) line = line_for(w, property, t);  // as in read_home: once per line
    const bool valid = cache_.sector_valid(line, w.sector);
    if ((partial >> w.sector & 1u) && fill_partial_writes_ && !valid) {
      // ECC fill (header): the store merges into the sector when the fill lands; the SM does
      // not wait for it (the store is acknowledged as usual).
      sim::Cycle arrives = 0;
      fetch(w, line, t, arrives);
      ++partial_write_fills_;
    } else {
      const sim::Cycle pending = valid ? cache_.sector_ready(line, w.sector) : 0;
      cache_.fill_sector(line, w.sector, std::max(pending, t));
      if (fill_partial_write_backs_) {
        const bool part = (partial >> w.sector & 1u) != 0;
        note_written_bytes(line, w.sector, valid, !part ? kAllBytes : written_bytes ? written_bytes[w.sector] : 0);
      }
    }
    const bool was_dirty = cache_.dirty_mask(line) != 0;
    cache_.mark_dirty(line, w.sector);
    if (!was_dirty) limit_dirty(w.set, line, t);
    acknowledged = std::max(acknowledged, t + hit_latency_ + extra);
  }
  // A store that made room by writing a dirty line back (a victim, or one over the set's limit)
  // is acknowledged no sooner than DRAM takes that write-back (the header).
  return std::max(acknowledged, write_back_taken_);
}

void L2Cache::note_written_bytes(const SectorCache::Line& line, std::uint32_t sector, bool was_valid,
                                 std::uint32_t bytes) {
  const std::uint8_t bit = static_cast<std::uint8_t>(1u << sector);
  if (bytes == kAllBytes) {  // the common case: a whole sector, which completes an incomplete one
    if (incomplete(line) & bit) incomplete_[line.slot] &= static_cast<std::uint8_t>(~bit);
    return;
  }
  if (incomplete_.empty()) {
    incomplete_.assign(cache_.line_count(), 0);
    written_bytes_.assign(std::size_t{cache_.line_count()} * cache_.sectors_per_line(), 0);
  }
  std::uint32_t& written = written_bytes_[std::size_t{line.slot} * cache_.sectors_per_line() + sector];
  if (incomplete_[line.slot] & bit) {
    written |= bytes;
    if (written == kAllBytes) incomplete_[line.slot] &= static_cast<std::uint8_t>(~bit);  // all written now
  } else if (!was_valid) {  // a sector L2 held whole (fetched or stored) stays whole
    written = bytes;
    incomplete_[line.slot] |= bit;
  }
}

sim::Cycle L2Cache::write_through_copy(const Where& at, const SectorCache::Line& copy, std::uint32_t sector,
                                       bool partial, sim::Cycle now) {
  // A copy takes the data and stays valid where the store covers the whole sector (or the sector
  // was valid already); without one the lookup moves no data.
  const bool takes = copy.found() && (!partial || cache_.sector_valid(copy, sector));
  const sim::Cycle t = occupy_slice(at.slice, now, takes);
  if (takes) {
    const sim::Cycle pending = cache_.sector_valid(copy, sector) ? cache_.sector_ready(copy, sector) : 0;
    cache_.fill_sector(copy, sector, std::max(t, pending));
  }
  return t;
}

void L2Cache::drop_copies(const Where& w, std::uint32_t sectors, std::uint32_t keep) {
  const std::uint32_t home = partition_of_slice(w.slice);
  for (std::uint32_t p = 0; p < partitions_; ++p) {
    if (p == home || p == keep) continue;
    const Where at = copy_in(w, p);
    const SectorCache::Line copy = cache_.find(at.set, at.line);
    if (copy.found()) cache_.drop_sectors(copy, sectors);
  }
}

SectorCache::Line L2Cache::line_for(const Where& w, L2Hint property, sim::Cycle now) {
  // A line number is never the invalid tag, so a matching tag in the right set is the line.
  SectorCache::Line line = memo_line_.found() && memo_set_ == w.set && cache_.tag(memo_line_) == w.line
                               ? memo_line_
                               : cache_.find(w.set, w.line);
  if (line.found()) {
    cache_.touch(line);
    apply_property(line, property, now);
  } else {
    line = cache_.victim(w.set);
    if (cache_.valid(line)) evict(line, now);
    cache_.install(line, w.line, property == L2Hint::Streaming ? LineClass::Streaming : LineClass::Normal);
    if (property == L2Hint::Persisting) make_persisting(line, now);
  }
  memo_line_ = line;
  memo_set_ = w.set;
  return line;
}

bool L2Cache::contains(std::uint64_t address) const {
  const Where w = locate(address);
  const SectorCache::Line line = cache_.find(w.set, w.line);
  return line.found() && cache_.sector_valid(line, w.sector);
}

bool L2Cache::has_copy(std::uint64_t address, std::uint32_t partition) const {
  const Where w = locate(address);
  if (partition == partition_of_slice(w.slice)) return false;
  const Where at = copy_in(w, partition);
  const SectorCache::Line line = cache_.find(at.set, at.line);
  return line.found() && cache_.sector_valid(line, w.sector);
}

}  // namespace warpsim::models::memory
