#pragma once
// The L2: one sectored, set-associative cache for the whole GPU, partitioned into slices by an
// address hash (each slice has its own sets and its own request port), write-back with
// write-allocate at sector granularity, in front of DRAM, with CUDA's persistence (S4).
//
// Assumptions, stated once:
// - Stores validate the sectors they write without reading DRAM (write-validate; the L2 keeps
//   byte masks), so a store is always an L2 sector hit: offset.csv's lg=26 offset 0 row shows
//   lts__t_sector_hit_rate = 33.46% = store sectors / all sectors while every load sector
//   misses, and dram__bytes_read does not grow for misaligned stores (writeOffset offset 1).
// - A miss fetches the 64-byte aligned sector pair around it from DRAM (the sector already
//   valid is not refetched): stride.csv's dram__bytes_read stays at the whole 4 MB array for
//   strides of 16 floats (one sector in two used) and halves at 32 and 64, i.e. DRAM moves
//   64-byte pieces. A 64-bit channel's burst of 8 (GDDR5) moves 64 bytes too.
// - A sector whose fill is still under way is a miss in the hit-rate count (ncu's
//   lts__t_sector_hit_rate stays at 33% for a coalesced stream that reads each pair's second
//   sector just after the first), but the access waits for that fill instead of fetching
//   again: concurrent misses to one sector merge.
// - Dirty lines are limited per set (preset l2.dirty_lines_per_set; 0 = no limit): when a store
//   makes a normal or streaming line dirty and its set then holds more dirty lines than the
//   limit, the least recently used other dirty line is written back and stays valid, clean.
//   Persisting lines are exempt. Evidence (calibration/h100): offset.csv lg=26 leaves
//   268.4 - 258.4 = 10.1 MB of its stores unwritten at the end (~3 lines per set of a 16-way
//   50 MB L2) where write-back on eviction would leave a third of L2 (~17 MB); lg=20 writes
//   nothing of its 4 MB (under 2 dirty lines per set); persist_10MB.csv without a window writes
//   536.5 MB = every one of the 25.6 store sweeps over the 10 MB hot region plus the 268 MB
//   streamed, although its reads of that region hit in L2 (only 4 MB of extra DRAM reads): each
//   hot line is cleaned between its stores, 21 MB of stores apart. With hitRatio 1.0 the hot
//   region is persisting and only the streamed 268.9 MB is written.
// - Partial-sector stores (preset l2.fill_partial_writes): with DRAM ECC on, the L2 can compute
//   a sector's check bits only over all of its bytes, so a store that writes part of a sector
//   not already valid in L2 makes the L2 fetch the sector from DRAM first (NVIDIA patents
//   US 8,099,650 "L2 ECC implementation": check bits are generated once all bytes of the word are
//   enabled; US 9,110,809 "Reducing memory traffic in DRAM ECC mode": fill requests for partial
//   writes, which that later patent defers until a threshold). A second partial store that
//   completes the sector finds it valid (or being filled) and does not fetch again. Fermi's
//   Tesla M2070 runs with ECC on; H100 does not fetch (offset.csv: writeOffset at offset 1 reads
//   no more DRAM than at offset 0).
// - The hit latency is the preset's whole SM-to-SM round trip; a miss returns after the DRAM
//   model's latency, also a whole round trip (latency.csv measures both end to end).
//
// Persistence (S4): the set-aside is a budget of lines, not fixed ways: at most
// set_aside / line_bytes lines are Persisting at a time, anywhere in L2. A persisting access
// that would exceed the budget evicts the least recently used persisting line (S4.3 thrashing),
// kept on one GPU-wide LRU list. Replacement inside a set evicts streaming lines first, then
// normal lines, and persisting lines only when a set holds nothing else, so normal data uses the
// set-aside only while persisting data doesn't (S4.1). Persisting lines outlive kernels until an
// access with the Normal property (not a plain access outside every window), a smaller set-aside or reset_persisting() demotes them (S4.6).
#include <cstdint>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/dram_channel.hpp"
#include "models/memory/persistence_policy.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/stats.hpp"
#include "sim/time.hpp"

namespace warpsim::models::memory {

class L2Cache {
 public:
  L2Cache(const Arch& arch, DramSystem& dram, sim::StatsRegistry& stats);

  // A sector read (L1 miss, uncached load, atomic) at core cycle `now`, with the persistence
  // property of the access. Returns the cycle the data is back at the SM; `hit` says whether the
  // sector was present (or being filled).
  sim::Cycle read(std::uint64_t address, sim::Cycle now, L2Hint property, bool& hit);
  // Several sectors of one line read by one instruction at `now` (`sectors`: bit s = sector s),
  // all with the same property: exactly read() once per sector in ascending order, but the line
  // is located and looked up once. `ready[s]` gets each sector's cycle; returns how many hit.
  std::uint32_t read_sectors(std::uint64_t line_address, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                             sim::Cycle* ready);
  // Starts loading the host memory the L2 will touch for `address` (simulator speed only).
  void prefetch(std::uint64_t address) const { cache_.prefetch_set(locate(address).set); }
  // A sector write (store): allocates without reading DRAM and marks the sector dirty. Returns
  // the cycle the write is acknowledged. `partial`: the store covers only some bytes of the
  // sector; with fill_partial_writes (preset) a sector not yet valid is then filled from DRAM
  // first (see the header comment).
  sim::Cycle write(std::uint64_t address, sim::Cycle now, L2Hint property, bool partial = false);
  // Several sectors of one line written by one instruction (bit s of `sectors`; `partial`: the
  // ones only partly written), all with the same property: exactly write() once per sector in
  // ascending order, with the line looked up once. Returns when the last write is acknowledged.
  sim::Cycle write_sectors(std::uint64_t line_address, std::uint32_t sectors, std::uint32_t partial, sim::Cycle now,
                           L2Hint property);

  // S4.1: the set-aside in bytes. Shrinking it demotes the least recently used persisting lines.
  void set_set_aside(std::uint64_t bytes);
  std::uint64_t set_aside_bytes() const { return persist_capacity_lines_ * line_bytes_; }
  // S4.6: cudaCtxResetPersistingL2Cache(): every persisting line becomes normal.
  void reset_persisting();
  // Bytes of L2 currently held by persisting lines (optionally only those inside a range).
  std::uint64_t persisting_bytes() const { return persisting_lines_ * line_bytes_; }
  std::uint64_t persisting_bytes_in(std::uint64_t base, std::uint64_t bytes) const;
  // Whether the sector holding `address` is present (for tests and reports, not the hot path).
  bool contains(std::uint64_t address) const;
  // Host-to-device copy or anything else that changes memory behind the cache: drop the lines.
  void invalidate(std::uint64_t base, std::uint64_t bytes);
  // Writes every dirty sector back (end of run accounting); the lines stay valid.
  void flush(sim::Cycle now);

  // Lines written back (and kept, clean) because their set had too many dirty lines.
  std::uint64_t eager_write_backs() const { return eager_write_backs_; }
  // Partial-sector stores that fetched their sector from DRAM (fill_partial_writes).
  std::uint64_t partial_write_fills() const { return partial_write_fills_; }
  std::uint64_t sector_hits() const { return hits_; }
  std::uint64_t sector_lookups() const { return lookups_; }
  const std::uint64_t& sector_hits_counter() const { return hits_; }
  const std::uint64_t& sector_lookups_counter() const { return lookups_; }
  std::uint32_t slice_of(std::uint64_t line_number) const;
  std::uint32_t line_bytes() const { return line_bytes_; }
  // The L2 line number of a byte address, and the sector within its line (shifts: SectorCache).
  std::uint64_t line_of(std::uint64_t address) const { return cache_.line_of(address); }
  std::uint32_t sector_of(std::uint64_t address) const { return cache_.sector_of(address); }

 private:
  static constexpr std::uint32_t kNil = SectorCache::kNone;
  static constexpr std::uint32_t kDramFetchBytes = 64;
  static constexpr std::uint64_t kFrac = 256;  // fixed-point fraction of a cycle for slice ports

  struct Where {
    std::uint64_t line;
    std::uint32_t set, slice, sector;
  };
  Where locate(std::uint64_t address) const;
  Where locate_memo(std::uint64_t address);  // locate(), remembering the last line's slice and set
  // Starts service at the slice's port: returns the cycle the lookup happens.
  sim::Cycle occupy_slice(std::uint32_t slice, sim::Cycle now);
  // Finds or allocates the line, applying the access's property. A line it allocates has no
  // valid sector, so callers need not ask which it did.
  SectorCache::Line line_for(const Where& w, L2Hint property, sim::Cycle now);
  // Fetches from DRAM the aligned group of sectors around `w.sector` that are not valid yet;
  // returns the cycle the data is back.
  sim::Cycle fetch(const Where& w, const SectorCache::Line& line, sim::Cycle now);
  void evict(const SectorCache::Line& line, sim::Cycle now);  // writes dirty sectors back, then drops
  void write_back(const SectorCache::Line& line, sim::Cycle now);  // writes dirty sectors back; stays, clean
  // A store has just made `line` dirty: keeps the set within its limit of dirty lines.
  void limit_dirty(std::uint32_t set, const SectorCache::Line& line, sim::Cycle now);
  void drop(const SectorCache::Line& line);  // forgets the line (no write-back)
  void apply_property(const SectorCache::Line& line, L2Hint property, sim::Cycle now);
  void make_persisting(const SectorCache::Line& line, sim::Cycle now);
  void make_normal(const SectorCache::Line& line);
  void list_remove(std::uint32_t slot);
  void list_push_front(std::uint32_t slot);

  DramSystem& dram_;
  SectorCache cache_;
  std::uint32_t slices_ = 1, sets_per_slice_ = 1, line_bytes_ = 128, sector_bytes_ = 32;
  std::uint32_t hit_latency_ = 0;
  std::uint32_t dirty_lines_per_set_ = 0;  // 0: no limit (write back on eviction only)
  bool fill_partial_writes_ = false;
  std::uint64_t partial_write_fills_ = 0;
  std::uint64_t eager_write_backs_ = 0;
  std::uint32_t sectors_per_fetch_ = 1;
  std::uint64_t slice_service_fixed_ = kFrac;  // port time of one sector
  std::uint64_t salt_ = 0;
  std::vector<std::uint64_t> slice_free_;  // fixed point
  std::vector<std::uint64_t> slice_hits_, slice_lookups_;
  // Persisting lines: a doubly linked list over slots, most recently used at the head.
  std::vector<std::uint32_t> prev_, next_;
  std::uint32_t head_ = kNil, tail_ = kNil;
  std::uint64_t persisting_lines_ = 0, persist_capacity_lines_ = 0;
  std::uint64_t hits_ = 0, lookups_ = 0;
  // The last line looked up: a warp's sectors come in runs on one line, so the next lookup is
  // usually the same line (checked against the slot's tag, so an eviction cannot fool it).
  SectorCache::Line memo_line_;
  Where memo_where_{~std::uint64_t{0}, 0, 0, 0};  // saves locate()'s three 64-bit divisions
};

}  // namespace warpsim::models::memory
