#pragma once
// A set-associative sectored cache: tags per line, a valid and a dirty bit per sector, the cycle
// each sector's fill arrives (so a later miss to a sector already being fetched waits for that
// fill instead of fetching again), a replacement rank and an eviction class per line (streaming
// lines go first, persisting lines last: S4.1, S4.5). The replacement policy that sets the ranks
// is chosen per cache (replacement_policies.hpp). Only state: no timing and no policy about what
// to do on a miss; L1, the read-only cache and L2 build on it. Flat arrays, no allocation after
// construction.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "models/memory/replacement_policies.hpp"
#include "models/memory/way_scan.hpp"
#include "sim/time.hpp"
#include "sim/zero_pages.hpp"

namespace warpsim::models::memory {

// Eviction priority of a line: lower goes first.
enum class LineClass : std::uint8_t { Streaming = 0, Normal = 1, Persisting = 2 };

struct SectorCacheGeometry {
  std::uint64_t bytes = 0;
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;
  std::uint32_t ways = 4;
  std::uint32_t replacement = 0;  // its position in ReplacementPolicies
  // A set replaces a clean line while it holds one, a dirty one only when none is clean
  // (persisting lines still last): an L2's l2.clean_victims_first. A cache whose lines are never
  // dirty (the write-through L1) is the same either way.
  bool clean_victims_first = false;
};

// Gives back a cache's words (sim/zero_pages.hpp); words from an arena go with the arena.
struct UnmapWords {
  std::size_t bytes = 0;
  bool huge = false;
  bool in_arena = false;
  void operator()(std::uint64_t* p) const;
};

class SectorCache {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint32_t kMaxSectorsPerLine = 8;

  // The words of a cache too small for huge pages (sim::worth_huge_pages) come from `arena` when
  // one is given (it must outlive the cache and have room for arena_bytes(geometry)), else from
  // the heap.
  explicit SectorCache(const SectorCacheGeometry& geometry, sim::ZeroPagesArena* arena = nullptr);
  // What a cache of this geometry takes of an arena's room (0: none; its words are mapped apart).
  static std::size_t arena_bytes(const SectorCacheGeometry& geometry);

  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }
  std::uint32_t line_bytes() const { return line_bytes_; }
  std::uint32_t sector_bytes() const { return sector_bytes_; }
  std::uint32_t sectors_per_line() const { return sectors_per_line_; }
  std::uint32_t line_count() const { return sets_ * ways_; }
  bool empty_geometry() const { return sets_ == 0; }

  // The line number of a byte address, and the sector within its line.
  // Every preset's line and sector sizes are powers of two: shifts and masks, where a division
  // by a size known only at run time costs the host 10-20 cycles, several per sector accessed.
  std::uint64_t line_of(std::uint64_t address) const {
    return line_shift_ >= 0 ? address >> line_shift_ : address / line_bytes_;
  }
  std::uint32_t sector_of(std::uint64_t address) const {
    if (sector_in_line_shift_ >= 0)
      return static_cast<std::uint32_t>((address & (line_bytes_ - 1)) >> sector_in_line_shift_);
    return static_cast<std::uint32_t>(address % line_bytes_ / sector_bytes_);
  }
  // The set a line number (address / line_bytes) maps to when the caller does not choose.
  std::uint32_t default_set(std::uint64_t line_number) const {
    return static_cast<std::uint32_t>(line_number % sets_);
  }

  // A line's slot (set * ways + way, the number the L2's lists and tests use) and where its
  // words are. find(), victim() and find_or_install() locate a line once and hand this back; the
  // accessors below read and write through it, so the set and word indices are not recomputed
  // from the slot on every call (several per sector on the hot path). Writing through a handle
  // takes a non-const SectorCache, as writing through a slot did. A handle stays valid for the
  // cache's lifetime; what it refers to is whatever line holds that slot.
  struct Line {
    std::uint32_t slot = kNone;
    std::uint64_t* tag = nullptr;
    std::uint64_t* meta = nullptr;
    std::uint32_t* fills = nullptr;  // the fill cycle of each sector, as an offset from epoch_
    bool found() const { return slot != kNone; }
  };
  // The handle of a slot (the L2's LRU list of persisting lines and its sweeps work in slots).
  Line line_at(std::uint32_t slot) const {
    const std::uint32_t set = ways_shift_ >= 0 ? slot >> ways_shift_ : slot / ways_;
    return line_in(set, slot - set * ways_);
  }

  // Asks the host CPU to start loading a set's tags, metadata and sector ready cycles (a lookup
  // that is about to happen then overlaps its host cache misses with other work; the fill or hit
  // that follows it reads a ready cycle of a way not known before the lookup).
  void prefetch_set(std::uint32_t set) const {
    // One plain loop: unrolled four lines a step, GCC 12 dropped these prefetches altogether
    // (results stay identical, so only the host's speed and the disassembly show it).
    const std::uint64_t* words = block(set);
    for (std::size_t w = 0; w < block_words_; w += 8) __builtin_prefetch(words + w);
  }
  // The line `line_number` in `set`, or a handle that is not found().
  Line find(std::uint32_t set, std::uint64_t line_number) const {
    const std::uint32_t way = first_equal(block(set), ways_, stored_tag(line_number));
    return way < ways_ ? line_in(set, way) : Line{};
  }
  // The line to replace in `set`: an invalid one, else the lowest rank of the lowest eviction
  // class present (streaming before normal before persisting), clean lines before dirty ones
  // where the geometry says so. The class sits above the rank in the metadata word, so one
  // comparison orders both. The caller installs a line in it next; a policy that ages the set on
  // a replacement (SRRIP) has done so.
  Line victim(std::uint32_t set) {
    const std::uint64_t* tags = block(set);
    const std::uint32_t invalid = first_equal(tags, ways_, kInvalidStored);
    if (invalid < ways_) return line_in(set, invalid);
    const std::uint32_t way =
        clean_victims_first_ ? clean_first_way(tags + ways_) : lowest_way(tags + ways_, ways_, kVictimOrderMask);
    const Line line = line_in(set, way);
    if (ages_set_ && (*line.meta & kRankMask) != 0) age_set(set, line);
    return line;
  }
  // The line `line_number` in its default set, touched (`present` true); else the set's victim,
  // replaced by the line with no valid sector (`present` false). For the write-through L1 and
  // read-only caches, whose victims have nothing to write back; the L2 picks its own.
  Line find_or_install(std::uint64_t line_number, LineClass cls, bool& present) {
    const std::uint32_t set = default_set(line_number);
    Line line = find(set, line_number);
    present = line.found();
    if (present) {
      touch(line);
    } else {
      line = victim(set);
      install(line, line_number, cls);
    }
    return line;
  }
  // Replaces the line (the caller has handled what was there) with an empty line.
  void install(const Line& line, std::uint64_t line_number, LineClass cls) {
    *line.tag = stored_tag(line_number);
    if (!installed_) installed_ = true;  // read, not written, once set: the hot path's line stays clean
    *line.meta = pack(ReplacementPolicies::visit(replacement_, [&]<class P>(std::type_identity<P>) { return P::inserted(clock_); }), cls, 0, 0);
  }
  void invalidate(const Line& line) {
    *line.tag = kInvalidStored;
    *line.meta = 0;
  }
  void invalidate_all();
  void touch(const Line& line) {
    *line.meta = (*line.meta & ~kRankMask) | ReplacementPolicies::visit(replacement_, [&]<class P>(std::type_identity<P>) { return P::hit(clock_); });
  }

  bool valid(const Line& line) const { return *line.tag != kInvalidStored; }
  std::uint64_t tag(const Line& line) const { return *line.tag - 1; }  // an invalid line's: ~0
  bool sector_valid(const Line& line, std::uint32_t sector) const { return (valid_mask(line) >> sector) & 1u; }
  std::uint8_t valid_mask(const Line& line) const { return static_cast<std::uint8_t>(*line.meta >> kValidShift); }
  std::uint8_t dirty_mask(const Line& line) const { return static_cast<std::uint8_t>(*line.meta >> kDirtyShift); }
  sim::Cycle sector_ready(const Line& line, std::uint32_t sector) const { return epoch_ + line.fills[sector]; }
  void fill_sector(const Line& line, std::uint32_t sector, sim::Cycle ready) {
    fill_sectors(line, 1u << sector, ready);
  }
  // The sectors set in `sectors` become valid, sector s's data arriving at ready[s] (a line's
  // misses answered by one L2 request, each sector at its own cycle): fill_sector() for each in
  // ascending order, with the metadata updated once.
  void fill_sectors_each(const Line& line, std::uint32_t sectors, const sim::Cycle* ready) {
    *line.meta |= std::uint64_t{sectors} << kValidShift;
    for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
      const auto sector = static_cast<std::uint32_t>(__builtin_ctz(bits));
      if (ready[sector] > epoch_ + kReadyMask) rebase(ready[sector]);
      line.fills[sector] = static_cast<std::uint32_t>(ready[sector] > epoch_ ? ready[sector] - epoch_ : 0);
    }
  }
  // The sectors set in `sectors` (bit s = sector s) become valid, their data arriving at `ready`.
  void fill_sectors(const Line& line, std::uint32_t sectors, sim::Cycle ready) {
    *line.meta |= std::uint64_t{sectors} << kValidShift;
    if (ready > epoch_ + kReadyMask) rebase(ready);
    const auto offset = static_cast<std::uint32_t>(ready > epoch_ ? ready - epoch_ : 0);
    for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) line.fills[__builtin_ctz(bits)] = offset;
  }
  void mark_dirty(const Line& line, std::uint32_t sector) { *line.meta |= std::uint64_t{1} << (kDirtyShift + sector); }
  // The sectors set in `sectors` become invalid (and clean); the line keeps its place.
  void drop_sectors(const Line& line, std::uint32_t sectors) {
    *line.meta &= ~((std::uint64_t{sectors & 0xffu} << kValidShift) | (std::uint64_t{sectors & 0xffu} << kDirtyShift));
  }
  void clean(const Line& line) { *line.meta &= ~(std::uint64_t{0xff} << kDirtyShift); }
  // The dirty lines of `set` whose class ranks below `below` (persisting lines are excluded by
  // passing LineClass::Persisting); `oldest` gets the one of them other than `except` that the
  // replacement policy would lose first (lowest rank), or a handle that is not found().
  std::uint32_t dirty_lines(std::uint32_t set, LineClass below, const Line& except, Line& oldest) const {
    const std::uint64_t* tags = block(set);
    const std::uint64_t* meta = tags + ways_;
    std::uint32_t count = 0, oldest_way = kNone;
    std::uint64_t oldest_stamp = ~std::uint64_t{0};
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags[w] == kInvalidStored || (meta[w] >> kDirtyShift) == 0) continue;
      if (((meta[w] >> kClassShift) & 3u) >= static_cast<std::uint8_t>(below)) continue;
      ++count;
      if (tags + w != except.tag && (meta[w] & kRankMask) < oldest_stamp) {
        oldest_stamp = meta[w] & kRankMask;
        oldest_way = w;
      }
    }
    oldest = oldest_way == kNone ? Line{} : line_in(set, oldest_way);
    return count;
  }
  LineClass line_class(const Line& line) const { return static_cast<LineClass>((*line.meta >> kClassShift) & 3u); }
  void set_line_class(const Line& line, LineClass cls) {
    *line.meta = (*line.meta & ~(std::uint64_t{3} << kClassShift)) |
                 (std::uint64_t{static_cast<std::uint8_t>(cls)} << kClassShift);
  }

 private:
  // Each set is one block of 64-bit words: the tags, then one metadata word per way (replacement
  // rank in bits 0-39, class in 40-41, valid sectors in 48-55, dirty sectors in 56-63), then the fill
  // cycle of every sector as 32-bit offsets from epoch_, way by way (read and written only as
  // 32-bit values). A lookup, a replacement and a fill touch adjacent host cache lines of one
  // page instead of one line per array: the simulated L2 is tens of MB and streaming kernels
  // touch a new set with nearly every access, so host cache and TLB misses are what costs
  // (32-bit fill cycles take an H100's L1s and L2 from 31 to 21 MB).
  // A tag is stored plus one, so that an invalid line (and metadata) is all zero bits: the cache
  // starts as zero pages the host maps only when a set is first touched, and a run pays, in
  // time and memory, for the sets it uses rather than for the whole GPU's caches.
  static constexpr std::uint64_t kInvalidStored = 0;
  static std::uint64_t stored_tag(std::uint64_t line_number) { return line_number + 1; }
  static constexpr int kClassShift = 40, kValidShift = 48, kDirtyShift = 56;
  static std::uint64_t pack(std::uint64_t rank, LineClass cls, std::uint8_t valid, std::uint8_t dirty) {
    return (rank & kRankMask) | (std::uint64_t{static_cast<std::uint8_t>(cls)} << kClassShift) |
           (std::uint64_t{valid} << kValidShift) | (std::uint64_t{dirty} << kDirtyShift);
  }
  static constexpr std::uint64_t kVictimOrderMask = (std::uint64_t{3} << kClassShift) | kRankMask;  // class, then rank
  // victim()'s way when clean lines go first: persisting lines last, dirty ones before them,
  // clean ones first, each tier in victim order.
  std::uint32_t clean_first_way(const std::uint64_t* meta) const {
    constexpr int kTierShift = 44;  // above the class, below the valid and dirty bytes
    std::uint32_t best = 0;
    std::uint64_t best_key = ~std::uint64_t{0};
    for (std::uint32_t w = 0; w < ways_; ++w) {
      const std::uint64_t m = meta[w];
      const bool persisting = ((m >> kClassShift) & 3u) == static_cast<std::uint8_t>(LineClass::Persisting);
      const std::uint64_t tier = persisting ? 2 : (m >> kDirtyShift) != 0 ? 1 : 0;
      const std::uint64_t key = (tier << kTierShift) | (m & kVictimOrderMask);
      if (key < best_key) best = w, best_key = key;
    }
    return best;
  }
  static constexpr std::uint64_t kReadyMask = 0xffffffffu;
  std::uint64_t* block(std::uint32_t set) const { return &words_[std::size_t{set} * block_words_]; }
  std::uint32_t* fills_of(std::uint32_t set) const { return reinterpret_cast<std::uint32_t*>(block(set) + 2 * ways_); }
  Line line_in(std::uint32_t set, std::uint32_t way) const {
    std::uint64_t* tags = block(set);
    return Line{set * ways_ + way, tags + way, tags + ways_ + way, fills_of(set) + std::size_t{way} * sectors_per_line_};
  }
  // A fill more than 2^32 cycles after epoch_ (hours of simulated time at GHz clocks): move the
  // epoch to 2^31 cycles before it. Fill cycles older than the new epoch become the epoch: they
  // stay in the past, which is all any comparison with them asks.
  void rebase(sim::Cycle ready);
  // `victim`, of nonzero rank, is about to be replaced: the other lines of its class age by its
  // rank, as the policy says (ReplacementPolicy::aged).
  void age_set(std::uint32_t set, const Line& victim);

  std::uint32_t sets_ = 0, ways_ = 0, line_bytes_ = 0, sector_bytes_ = 0, sectors_per_line_ = 1;
  int ways_shift_ = -1;      // log2(ways) when ways is a power of two
  int line_shift_ = -1;      // log2(line_bytes) when a power of two
  int sector_in_line_shift_ = -1;  // log2(sector_bytes) when it and line_bytes are powers of two
  std::uint32_t replacement_ = 0;  // the policy's position in ReplacementPolicies
  bool ages_set_ = false;          // ... and whether it ages a set on a replacement
  bool clean_victims_first_ = false;  // SectorCacheGeometry::clean_victims_first
  std::uint64_t clock_ = 0;  // accesses, for policies that rank by time (2^40 before wrapping)
  sim::Cycle epoch_ = 0;     // fill cycles are stored as offsets from it
  std::size_t block_words_ = 0;  // ways x (tag + metadata) + ways x sectors_per_line / 2 fill cycles
  bool installed_ = false;  // a line was installed since the cache was last all invalid
  std::unique_ptr<std::uint64_t[], UnmapWords> words_;  // zero pages, mapped as first touched
};

}  // namespace warpsim::models::memory
