#pragma once
// The L2: one sectored, set-associative cache for the whole GPU, partitioned into slices by an
// address hash (each slice has its own sets and its own request port), write-back with
// write-allocate at sector granularity, in front of DRAM, with CUDA's persistence (S4).
//
// Partitions (l2.partitions; the H100 has two halves, l2_partitions.csv): each slice belongs to
// one partition, and a line's home is its slice. Each SM is near one partition
// (l2.sm_partitions). A request for a line whose home is another partition is looked up first in
// the SM's own partition, which may hold a copy (in the slice of its partition that mirrors the
// home slice), and on a miss forwarded to the home partition (l2.far_latency more): a load that
// hits near takes 273 cycles on the H100, one found only in the far half 453, a miss 563 when the
// line's home is near and 756 when it is far. The home's answer leaves a copy near the SM (a second
// SM on that side then hits near: sweep_read_twice in l2_semantics_*.csv). Copies are clean. A
// store from the home side drops the sectors' copies elsewhere; one from another side writes
// through its side's copy to the home, where the line becomes dirty (hot_rmw in setaside.csv: 28%
// of the hot loads miss near, as "reader on the far side x last writer on the home side" predicts).
//
// Counting (Nsight Compute's lts__t_sectors and lts__t_sector_hit_rate, l2_semantics_*.csv):
// every lookup counts, the near partition's and the home's second one for a forwarded request
// (srcunit_ltcfabric); stores count as hits in both; a sector whose fill another request started
// is a hit (it waits for that fill, concurrent misses merge), one this request's own fetch brought
// in is a miss (a coalesced stream's sectors are all misses: sweep_read); and each launch adds
// l2.launch_lookups lookups, l2.launch_lookup_hits of them hits (its closing memory barrier and
// instruction fetches: 43.7 K on the H100 even for an empty kernel).
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
// - Dirty lines are limited per set (preset l2.dirty_lines_per_set; 0 = no limit): when a store
//   makes a normal or streaming line dirty and its set then holds more dirty lines than the
//   limit, the least recently used other dirty line is written back and stays valid, clean.
//   Persisting lines are exempt. Evidence (calibration/h100): offset.csv lg=26 leaves
//   268.4 - 258.4 = 10.1 MB of its stores unwritten at the end (~3 lines per set of a 16-way
//   50 MB L2) where write-back on eviction would leave a third of L2 (~17 MB); lg=20 writes
//   nothing of its 4 MB (under 2 dirty lines per set).
// - Partial-sector stores (preset l2.fill_partial_writes): with DRAM ECC on, the L2 can compute
//   a sector's check bits only over all of its bytes, so a store that writes part of a sector
//   not already valid in L2 makes the L2 fetch the sector from DRAM first (NVIDIA patents
//   US 8,099,650 "L2 ECC implementation": check bits are generated once all bytes of the word are
//   enabled; US 9,110,809 "Reducing memory traffic in DRAM ECC mode": fill requests for partial
//   writes, which that later patent defers until a threshold). A second partial store that
//   completes the sector finds it valid (or being filled) and does not fetch again. Fermi's
//   Tesla M2070 runs with ECC on; H100 does not fetch (offset.csv: writeOffset at offset 1 reads
//   no more DRAM than at offset 0).
// - Partial sectors written back (preset l2.fill_partial_write_backs): the Hoppers defer that fill
//   to the write-back, as the later patent does. A dirty sector whose stores wrote only some of its
//   bytes, and that the L2 never had whole (read from DRAM, or completed by other stores: writeOffset's
//   split sectors, which two warps complete), is read from DRAM when it goes back, then written. The
//   H200 (h200/stream_latency_ncu.csv, lane0_store against no_store at 132 SMs): one float stored a
//   line, each line written back, reads 15.29 MB more from DRAM while writing 15.61 MB, one 32-byte
//   read a sector written back; whole lines stored and written back (body) read nothing more. The
//   L2 keeps a byte mask a sector, made when the first store writes part of one. The write is
//   placed on the DRAM at the write-back's cycle, right after the read, not after the read's
//   data: the DRAM model's timing is busy-until in arrival order (banked_dram.hpp), so the bytes
//   and the bus time are the GPU's, the write's own start a little early.
// - A store that makes the L2 write a dirty line back (its victim, or a line over the set's
//   dirty limit) is acknowledged no sooner than DRAM takes the write-back: until then the L2 has
//   nowhere else for the data. Under a DRAM-bound copy this holds a finished block's slot until
//   its last stores are acknowledged. readOffset at n = 2^26, from the first and last warp of
//   every block (h100-measured/timeline_readOffset.csv.xz against `run --timeline`, through
//   analysis/validation/block_slots.py --first-last): the H100's blocks span 1,768 cycles and
//   leave their slot empty a median 679 before the next starts; the model's 1,978 and 492
//   without the wait, 1,654 and 799 with it (fewer loads in flight wait less in DRAM's queues),
//   and ncu's occupancy, 0.707, comes out 0.816 without and 0.685 with. The SM's side of this
//   (a block's slot held for the acknowledgement) is what h100-measured/store_acks* contradicts
//   (docs/model.md, "Occupancy as ncu counts it").
// - The hit latency is the preset's whole SM-to-SM round trip; a miss returns after the DRAM
//   model's latency, also a whole round trip (latency.csv measures both end to end).
//
// Persistence (S4): the set-aside is a budget of lines, not fixed ways: at most
// set_aside / line_bytes lines are Persisting at a time, anywhere in L2. A persisting access
// that would exceed the budget evicts the least recently used persisting line (S4.3 thrashing),
// kept on one GPU-wide LRU list. Replacement inside a set evicts streaming lines first, then
// normal lines, and persisting lines only when a set holds nothing else, so normal data uses the
// set-aside only while persisting data doesn't (S4.1); with l2.clean_victims_first (the Hoppers)
// a clean streaming or normal line goes before any dirty one (h100-measured/streaming_lines.csv:
// streaming lines that were stored to stay, those only read do not). Persisting lines outlive
// kernels until an access with the Normal property (not a plain access outside every window), a
// smaller set-aside or reset_persisting() demotes them (S4.6). Copies in other partitions are
// never persisting.
#include <cstdint>
#include <vector>

#include "models/memory/dram_model.hpp"
#include "models/memory/l2_spec.hpp"
#include "models/memory/persistence_policy.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/stats.hpp"
#include "sim/time.hpp"

namespace warpsim::models::memory {

class L2Cache {
 public:
  // `core_clock_khz`: the clock its timing counts in (the slices run on l2.clock_khz).
  L2Cache(const L2Spec& spec, std::uint64_t core_clock_khz, DramModel& dram, sim::StatsRegistry& stats);

  // Every request names the partition its SM is near (L2Spec::partition_near; 0 with one).
  // A sector read (L1 miss, uncached load, atomic) at core cycle `now`, with the persistence
  // property of the access. Returns the cycle the data is back at the SM; `hit` says whether the
  // sector was found (near, or at its home when forwarded).
  sim::Cycle read(std::uint64_t address, sim::Cycle now, L2Hint property, std::uint32_t partition, bool& hit);
  // Several sectors of one line read by one request at `now` (`sectors`: bit s = sector s), all
  // with the same property: the line is located and looked up once. `ready[s]` gets each
  // sector's cycle; returns how many lookups hit.
  std::uint32_t read_sectors(std::uint64_t line_address, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                             std::uint32_t partition, sim::Cycle* ready);
  // Starts loading the host memory the L2 will touch for `address` (simulator speed only).
  void prefetch(std::uint64_t address) const {
    const std::uint32_t set = locate(address).set;
    cache_.prefetch_set(set);
    if (!incomplete_.empty()) prefetch_written_bytes(set);
  }
  // A sector write (store): allocates without reading DRAM and marks the sector dirty. Returns
  // the cycle the write is acknowledged. `partial`: the store covers only some bytes of the
  // sector; with fill_partial_writes (preset) a sector not yet valid is then filled from DRAM
  // first (see the header comment).
  sim::Cycle write(std::uint64_t address, sim::Cycle now, L2Hint property, std::uint32_t partition,
                   bool partial = false);
  // Several sectors of one line written by one request (bit s of `sectors`; `partial`: the ones
  // only partly written, `written_bytes[s]` their byte masks where given, else unknown), all with
  // the same property: exactly write() once per sector in ascending order, with the line looked up
  // once. Returns when the last write is acknowledged.
  sim::Cycle write_sectors(std::uint64_t line_address, std::uint32_t sectors, std::uint32_t partial, sim::Cycle now,
                           L2Hint property, std::uint32_t partition, const std::uint32_t* written_bytes = nullptr);
  // A launch has ended: the lookups it made besides its memory instructions (l2.launch_lookups).
  void count_launch() {
    lookups_ += launch_lookups_;
    hits_ += launch_hits_;
  }

  // S4.1: the set-aside in bytes. Shrinking it demotes the least recently used persisting lines.
  void set_set_aside(std::uint64_t bytes);
  std::uint64_t set_aside_bytes() const { return persist_capacity_lines_ * line_bytes_; }
  // S4.6: cudaCtxResetPersistingL2Cache(): every persisting line becomes normal.
  void reset_persisting();
  // Bytes of L2 currently held by persisting lines (optionally only those inside a range).
  std::uint64_t persisting_bytes() const { return persisting_lines_ * line_bytes_; }
  std::uint64_t persisting_bytes_in(std::uint64_t base, std::uint64_t bytes) const;
  // Whether the sector holding `address` is present at its home (for tests and reports).
  bool contains(std::uint64_t address) const;
  // Whether partition `partition` holds a copy of the sector holding `address` (tests).
  bool has_copy(std::uint64_t address, std::uint32_t partition) const;
  // Host-to-device copy or anything else that changes memory behind the cache: drop the lines
  // and their copies.
  void invalidate(std::uint64_t base, std::uint64_t bytes);
  // Writes every dirty sector back (end of run accounting); the lines stay valid.
  void flush(sim::Cycle now);

  // Lines written back (and kept, clean) because their set had too many dirty lines.
  std::uint64_t eager_write_backs() const { return eager_write_backs_; }
  // Partial-sector stores that fetched their sector from DRAM (fill_partial_writes).
  std::uint64_t partial_write_fills() const { return partial_write_fills_; }
  // Incomplete sectors read from DRAM as they were written back (fill_partial_write_backs).
  std::uint64_t partial_write_back_fills() const { return partial_write_back_fills_; }
  std::uint64_t sector_hits() const { return hits_; }
  std::uint64_t sector_lookups() const { return lookups_; }
  // Of sector_lookups(), those a partition made for a request forwarded from another one.
  std::uint64_t forwarded_lookups() const { return forwarded_; }
  const std::uint64_t& sector_hits_counter() const { return hits_; }
  const std::uint64_t& sector_lookups_counter() const { return lookups_; }
  std::uint32_t slice_of(std::uint64_t line_number) const;
  // With l2.slice_pieces: the slice of a line's group of four in its 4 KB block (lines b, b+1,
  // b+4, b+5 of 32; eight groups a block), and the line's set index within that slice.
  struct Piece {
    std::uint32_t slice;
    std::uint64_t set_index;
  };
  Piece piece_of(std::uint64_t line_number) const;
  std::uint32_t partition_of_slice(std::uint32_t slice) const { return slice / slices_per_partition_; }
  std::uint32_t line_bytes() const { return line_bytes_; }
  // The L2 line number of a byte address, and the sector within its line (shifts: SectorCache).
  std::uint64_t line_of(std::uint64_t address) const { return cache_.line_of(address); }
  std::uint32_t sector_of(std::uint64_t address) const { return cache_.sector_of(address); }

 private:
  // Without l2.slice_pieces: consecutive lines to consecutive slices (slice_of).
  std::uint32_t consecutive_slice_of(std::uint64_t line_number) const;
  static constexpr std::uint32_t kNil = SectorCache::kNone;
  static constexpr std::uint32_t kDramFetchBytes = 64;
  static constexpr std::uint32_t kAllBytes = 0xffffffffu;  // a 32-byte sector's byte mask, whole
  static constexpr std::uint64_t kFrac = 256;  // fixed-point fraction of a cycle for slice ports

  struct Where {
    std::uint64_t line;
    std::uint32_t set, slice, sector;  // the home slice and its set
  };
  Where locate(std::uint64_t address) const;
  Where locate_memo(std::uint64_t address);  // locate(), remembering the last line's slice and set
  // Where partition `partition` keeps a copy of the line at `w`: the slice mirroring its home slice.
  Where copy_in(const Where& w, std::uint32_t partition) const {
    const std::uint32_t slice = partition * slices_per_partition_ + w.slice % slices_per_partition_;
    return Where{w.line, set_in_slice(w.set / slices_, slice), slice, w.sector};
  }
  // The cache's set number of set `index` of slice `slice`. The slices' sets of one index lie
  // together in the cache's state, so the lines of a small region, which spread over every slice
  // but few indices, share a few of the state's huge pages (a run touching 600 KB of data wrote
  // 7 of the H100's 2 MiB pages, slice by slice, and each costs ~1.5 ms to clear).
  std::uint32_t set_in_slice(std::uint32_t index, std::uint32_t slice) const { return index * slices_ + slice; }
  std::uint32_t slice_of_set(std::uint32_t set) const { return set % slices_; }
  // Starts service at the slice's port: returns the cycle the lookup happens. `data`: the lookup
  // moves a sector (a hit, a fill, a store); else it takes a tag lookup's slot only.
  sim::Cycle occupy_slice(std::uint32_t slice, sim::Cycle now, bool data = true);
  // A request (one instruction's sectors of one line) comes into the slice through the crossbar's
  // input, which takes one at a time for l2.request_cycles whatever its sectors: returns the cycle
  // it is in, from which its sectors take the slice's port. A request forwarded to the line's home
  // partition comes into the home slice once too, with all the sectors it missed (ncu counts the
  // H200's forwarded reads as requests of four sectors, lts__t_requests_srcunit_ltcfabric_op_read).
  // The H200 keeps that input busy 1.22-1.48 L2 cycles a request, whether it carries one sector or
  // three to four, and transposeNaive, one float of a line a thread, 73-81% of the time
  // (h200/partial_writes_l2.csv: xbar2lts cycles over requests). Off (0) in every preset for now
  // (docs/model.md, the L2).
  sim::Cycle enter_slice(std::uint32_t slice, sim::Cycle now) {
    if (request_fixed_ == 0) return now;
    const std::uint64_t start = std::max(now * kFrac, input_free_[slice]);
    input_free_[slice] = start + request_fixed_;
    return (start + kFrac - 1) / kFrac;
  }
  void count_lookups(std::uint32_t slice, std::uint32_t lookups, std::uint32_t hits) {
    lookups_ += lookups;
    hits_ += hits;
    slice_lookups_[slice] += lookups;
    slice_hits_[slice] += hits;
  }
  // The sectors' lookup at the line's home, `extra` cycles from the requesting SM beyond the
  // hit latency (the forwarding of another partition); fetches what is missing from DRAM.
  // `fetched`: the sectors the request's own fetches brought in so far (misses, not hits).
  std::uint32_t read_home(const Where& w, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                          sim::Cycle extra, sim::Cycle* ready, std::uint32_t& fetched);
  // A request from partition `near` for a line homed elsewhere: its copy there, then the home.
  std::uint32_t read_near(const Where& w, std::uint32_t sectors, sim::Cycle now, L2Hint property,
                          std::uint32_t near, sim::Cycle* ready);
  // A store's sector as it passes its partition's copy of the line (`copy`, at `at`; written
  // through). Returns the cycle it goes on home.
  sim::Cycle write_through_copy(const Where& at, const SectorCache::Line& copy, std::uint32_t sector, bool partial,
                                sim::Cycle now);
  // Drops the copies of `sectors` in every partition but the home and `keep`.
  void drop_copies(const Where& w, std::uint32_t sectors, std::uint32_t keep);
  // Finds or allocates the line at its home, applying the access's property. A line it allocates
  // has no valid sector, so callers need not ask which it did.
  SectorCache::Line line_for(const Where& w, L2Hint property, sim::Cycle now);
  // Allocates a copy of the line in `at` (a partition's mirror set): replaces the set's victim.
  SectorCache::Line install_copy(const Where& at, L2Hint property, sim::Cycle now);
  // Fetches from DRAM the aligned group of sectors around `w.sector` that are not valid yet;
  // returns the sectors fetched and sets `ready` to the cycle the data is back.
  std::uint32_t fetch(const Where& w, const SectorCache::Line& line, sim::Cycle now, sim::Cycle& ready);
  void evict(const SectorCache::Line& line, sim::Cycle now);  // writes dirty sectors back, then drops
  void write_back(const SectorCache::Line& line, sim::Cycle now);  // writes dirty sectors back; stays, clean
  // fill_partial_write_backs: a store wrote `bytes` (a byte mask) of `sector` of `line`, which
  // was `was_valid` before it; keeps incomplete_ and written_bytes_ up to date.
  void note_written_bytes(const SectorCache::Line& line, std::uint32_t sector, bool was_valid, std::uint32_t bytes);
  // Starts loading the set's incomplete bits and byte masks (prefetch): a store of one float a
  // line missed in them at every sector (transposeNaive simulated 1.5 times as long).
  void prefetch_written_bytes(std::uint32_t set) const {
    const std::size_t slot = std::size_t{set} * cache_.ways();
    __builtin_prefetch(&incomplete_[slot]);
    const std::uint32_t* masks = &written_bytes_[slot * cache_.sectors_per_line()];
    for (std::size_t k = 0; k < std::size_t{cache_.ways()} * cache_.sectors_per_line(); k += 16)
      __builtin_prefetch(masks + k);
  }
  // The sectors of `line` that are incomplete: by the line's slot, which a copy of the line
  // elsewhere does not share and which the line keeps while it is in the cache.
  std::uint8_t incomplete(const SectorCache::Line& line) const {
    return incomplete_.empty() ? 0 : incomplete_[line.slot];
  }
  // A store has just made `line` dirty: keeps the set within its limit of dirty lines.
  void limit_dirty(std::uint32_t set, const SectorCache::Line& line, sim::Cycle now);
  void drop(const SectorCache::Line& line);  // forgets the line (no write-back)
  void apply_property(const SectorCache::Line& line, L2Hint property, sim::Cycle now);
  void make_persisting(const SectorCache::Line& line, sim::Cycle now);
  void make_normal(const SectorCache::Line& line);
  void list_remove(std::uint32_t slot);
  void list_push_front(std::uint32_t slot);

  DramModel& dram_;
  SectorCache cache_;
  std::uint32_t slices_ = 1, sets_per_slice_ = 1, line_bytes_ = 128, sector_bytes_ = 32;
  std::uint32_t partitions_ = 1, slices_per_partition_ = 1;
  std::uint32_t hit_latency_ = 0, far_latency_ = 0;
  std::uint64_t launch_lookups_ = 0, launch_hits_ = 0;
  // The latest cycle DRAM took a write-back that the store being served caused (write_sectors).
  sim::Cycle write_back_taken_ = 0;
  std::uint32_t dirty_lines_per_set_ = 0;  // 0: no limit (write back on eviction only)
  bool fill_partial_writes_ = false;
  std::uint64_t partial_write_fills_ = 0;
  bool fill_partial_write_backs_ = false;
  std::uint64_t partial_write_back_fills_ = 0;
  // Home sectors that stores wrote in part and the L2 never had whole: a bit a sector for each
  // slot, and the bytes written (slot x sectors a line + sector). Made at the first such store:
  // empty in most runs.
  std::vector<std::uint8_t> incomplete_;
  std::vector<std::uint32_t> written_bytes_;
  std::uint64_t eager_write_backs_ = 0;
  std::uint32_t sectors_per_fetch_ = 1;
  std::uint64_t slice_service_fixed_ = kFrac;  // port time of one sector
  std::uint64_t slice_lookup_fixed_ = kFrac;   // ... of a lookup that moves no data
  std::uint64_t request_fixed_ = 0;            // a request's time at the slice's input (enter_slice)
  std::vector<std::uint64_t> input_free_;      // fixed point, per slice
  std::uint64_t salt_ = 0;
  std::vector<std::uint64_t> slice_free_;  // fixed point
  std::vector<std::uint64_t> slice_hits_, slice_lookups_;
  // Persisting lines: a doubly linked list over slots, most recently used at the head.
  std::vector<std::uint32_t> prev_, next_;
  std::uint32_t head_ = kNil, tail_ = kNil;
  std::uint64_t persisting_lines_ = 0, persist_capacity_lines_ = 0;
  // What a write-back holds its slice's port with the current set-aside, fixed point:
  // l2.set_aside_write_back_cycles at the set-aside's ways (the driver grants whole ways, of
  // way_bytes_ each: h100-measured/setaside_stores.csv).
  std::uint64_t write_back_fixed_ = 0;
  std::vector<std::uint64_t> write_back_fixed_by_ways_;
  // l2.set_aside_write_back_batch, and each slice's write-backs since it last paid for a batch.
  std::uint32_t write_back_batch_ = 1;
  bool slice_pieces_ = false;  // l2.slice_pieces
  std::vector<std::uint32_t> write_backs_unpaid_;
  std::uint64_t way_bytes_ = 1;
  std::uint64_t hits_ = 0, lookups_ = 0, forwarded_ = 0;
  // The last home line looked up: a warp's sectors come in runs on one line, so the next lookup
  // is usually the same line (checked against the slot's set and tag: an eviction, or a copy of
  // another line taking the slot, cannot fool it).
  SectorCache::Line memo_line_;
  std::uint32_t memo_set_ = kNil;
  Where memo_where_{~std::uint64_t{0}, 0, 0, 0};  // saves locate()'s three 64-bit divisions
};

}  // namespace warpsim::models::memory
