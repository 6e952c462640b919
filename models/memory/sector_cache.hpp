#pragma once
// A set-associative sectored cache: tags per line, a valid and a dirty bit per sector, the cycle
// each sector's fill arrives (so a later miss to a sector already being fetched waits for that
// fill instead of fetching again), LRU stamps, and an eviction class per line (streaming lines
// go first, persisting lines last: S4.1, S4.5). Only state: no timing and no policy about what
// to do on a miss; L1, the read-only cache and L2 build on it. Flat arrays, no allocation after
// construction.
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "sim/time.hpp"

namespace warpsim::models::memory {

// Eviction priority of a line: lower goes first.
enum class LineClass : std::uint8_t { Streaming = 0, Normal = 1, Persisting = 2 };

struct SectorCacheGeometry {
  std::uint64_t bytes = 0;
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;
  std::uint32_t ways = 4;
};

class SectorCache {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint32_t kMaxSectorsPerLine = 8;

  explicit SectorCache(const SectorCacheGeometry& geometry);

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
    if (line_shift_ >= 0 && sector_shift_ >= 0)
      return static_cast<std::uint32_t>((address & (line_bytes_ - 1)) >> sector_shift_);
    return static_cast<std::uint32_t>(address % line_bytes_ / sector_bytes_);
  }
  // The set a line number (address / line_bytes) maps to when the caller does not choose.
  std::uint32_t default_set(std::uint64_t line_number) const {
    return static_cast<std::uint32_t>(line_number % sets_);
  }

  // Asks the host CPU to start loading a set's tags, metadata and sector ready cycles (a lookup
  // that is about to happen then overlaps its host cache misses with other work; the fill or hit
  // that follows it reads a ready cycle of a way not known before the lookup).
  void prefetch_set(std::uint32_t set) const {
    const std::uint64_t* block = &words_[std::size_t{set} * block_words_];
    for (std::size_t w = 0; w < block_words_; w += 8) __builtin_prefetch(block + w);
  }
  // The slot holding `line_number` in `set`, or kNone. Slots are numbered set * ways + way.
  std::uint32_t find(std::uint32_t set, std::uint64_t line_number) const {
    const std::uint64_t* tags = &words_[std::size_t{set} * block_words_];
    for (std::uint32_t w = 0; w < ways_; ++w)
      if (tags[w] == line_number) return set * ways_ + w;
    return kNone;
  }
  // The slot to replace in `set`: an invalid one, else the least recently used of the lowest
  // eviction class present (streaming before normal before persisting). The class sits above
  // the LRU stamp in the metadata word, so one comparison orders both.
  std::uint32_t victim(std::uint32_t set) const {
    const std::uint64_t* tags = &words_[std::size_t{set} * block_words_];
    const std::uint64_t* meta = tags + ways_;
    std::uint32_t best = 0;
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags[w] == kInvalidTag) return set * ways_ + w;
      if (rank(meta[w]) < rank(meta[best])) best = w;
    }
    return set * ways_ + best;
  }
  // The slot holding `line_number` in its default set, touched (`present` true); else the set's
  // victim, replaced by the line with no valid sector (`present` false). For the write-through
  // L1 and read-only caches, whose victims have nothing to write back; the L2 picks its own.
  std::uint32_t find_or_install(std::uint64_t line_number, LineClass cls, bool& present) {
    const std::uint32_t set = default_set(line_number);
    std::uint32_t slot = find(set, line_number);
    present = slot != kNone;
    if (present) {
      touch(slot);
    } else {
      slot = victim(set);
      install(slot, line_number, cls);
    }
    return slot;
  }
  // Replaces the slot's line (the caller has handled what was there) with an empty line.
  void install(std::uint32_t slot, std::uint64_t line_number, LineClass cls) {
    tag_ref(slot) = line_number;
    meta_ref(slot) = pack(++clock_, cls, 0, 0);
  }
  void invalidate(std::uint32_t slot) {
    tag_ref(slot) = kInvalidTag;
    meta_ref(slot) = pack(0, LineClass::Normal, 0, 0);
  }
  void invalidate_all();
  void touch(std::uint32_t slot) {
    std::uint64_t& m = meta_ref(slot);
    m = (m & ~kLruMask) | (++clock_ & kLruMask);
  }

  bool valid(std::uint32_t slot) const { return tag_ref(slot) != kInvalidTag; }
  std::uint64_t tag(std::uint32_t slot) const { return tag_ref(slot); }
  bool sector_valid(std::uint32_t slot, std::uint32_t sector) const { return (valid_mask(slot) >> sector) & 1u; }
  std::uint8_t valid_mask(std::uint32_t slot) const {
    return static_cast<std::uint8_t>(meta_ref(slot) >> kValidShift);
  }
  std::uint8_t dirty_mask(std::uint32_t slot) const {
    return static_cast<std::uint8_t>(meta_ref(slot) >> kDirtyShift);
  }
  sim::Cycle sector_ready(std::uint32_t slot, std::uint32_t sector) const {
    const ReadyRef r = ready_ref(slot, sector);
    return epoch_ + ((words_[r.word] >> r.shift) & kReadyMask);
  }
  void fill_sector(std::uint32_t slot, std::uint32_t sector, sim::Cycle ready) {
    fill_sectors(slot, 1u << sector, ready);
  }
  // The sectors set in `sectors` (bit s = sector s) become valid, their data arriving at `ready`.
  void fill_sectors(std::uint32_t slot, std::uint32_t sectors, sim::Cycle ready) {
    meta_ref(slot) |= std::uint64_t{sectors} << kValidShift;
    if (ready > epoch_ + kReadyMask) rebase(ready);
    const std::uint64_t offset = ready > epoch_ ? ready - epoch_ : 0;
    const ReadyRef first = ready_ref(slot, 0);  // the line's fill cycles are consecutive halves
    const std::size_t half = first.shift / 32;
    for (std::uint32_t bits = sectors; bits != 0; bits &= bits - 1) {
      const std::size_t h = half + static_cast<std::size_t>(__builtin_ctz(bits));
      std::uint64_t& word = words_[first.word + h / 2];
      const unsigned shift = static_cast<unsigned>(h % 2) * 32;
      word = (word & ~(kReadyMask << shift)) | (offset << shift);
    }
  }
  void mark_dirty(std::uint32_t slot, std::uint32_t sector) {
    meta_ref(slot) |= std::uint64_t{1} << (kDirtyShift + sector);
  }
  void clean(std::uint32_t slot) { meta_ref(slot) &= ~(std::uint64_t{0xff} << kDirtyShift); }
  // The dirty lines of `set` whose class ranks below `below` (persisting lines are excluded by
  // passing LineClass::Persisting); `oldest` gets the least recently used of them other than
  // `except`, or kNone.
  std::uint32_t dirty_lines(std::uint32_t set, LineClass below, std::uint32_t except, std::uint32_t& oldest) const {
    const std::uint64_t* tags = &words_[std::size_t{set} * block_words_];
    const std::uint64_t* meta = tags + ways_;
    std::uint32_t count = 0;
    oldest = kNone;
    std::uint64_t oldest_stamp = ~std::uint64_t{0};
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags[w] == kInvalidTag || (meta[w] >> kDirtyShift) == 0) continue;
      if (((meta[w] >> kClassShift) & 3u) >= static_cast<std::uint8_t>(below)) continue;
      ++count;
      if (set * ways_ + w != except && (meta[w] & kLruMask) < oldest_stamp) {
        oldest_stamp = meta[w] & kLruMask;
        oldest = set * ways_ + w;
      }
    }
    return count;
  }
  LineClass line_class(std::uint32_t slot) const {
    return static_cast<LineClass>((meta_ref(slot) >> kClassShift) & 3u);
  }
  void set_line_class(std::uint32_t slot, LineClass cls) {
    std::uint64_t& m = meta_ref(slot);
    m = (m & ~(std::uint64_t{3} << kClassShift)) | (std::uint64_t{static_cast<std::uint8_t>(cls)} << kClassShift);
  }

 private:
  // Each set is one block of words: the tags, then one metadata word per way (LRU stamp in bits
  // 0-39, class in 40-41, valid sectors in 48-55, dirty sectors in 56-63), then the fill cycle of
  // every sector, two to a word as 32-bit offsets from epoch_. A lookup, a replacement and a fill
  // touch adjacent host cache lines of one page instead of one line per array: the simulated L2
  // is tens of MB and streaming kernels touch a new set with nearly every access, so host cache
  // and TLB misses are what costs (32-bit fill cycles take an H100's L1s and L2 from 31 to 21 MB).
  static constexpr std::uint64_t kInvalidTag = ~std::uint64_t{0};
  static constexpr std::uint64_t kLruMask = (std::uint64_t{1} << 40) - 1;
  static constexpr int kClassShift = 40, kValidShift = 48, kDirtyShift = 56;
  static std::uint64_t pack(std::uint64_t lru, LineClass cls, std::uint8_t valid, std::uint8_t dirty) {
    return (lru & kLruMask) | (std::uint64_t{static_cast<std::uint8_t>(cls)} << kClassShift) |
           (std::uint64_t{valid} << kValidShift) | (std::uint64_t{dirty} << kDirtyShift);
  }
  static std::uint64_t rank(std::uint64_t meta) { return meta & ((std::uint64_t{3} << kClassShift) | kLruMask); }
  std::uint32_t set_of(std::uint32_t slot) const { return ways_shift_ >= 0 ? slot >> ways_shift_ : slot / ways_; }
  std::size_t tag_index(std::uint32_t slot) const {
    const std::uint32_t set = set_of(slot);
    return std::size_t{set} * block_words_ + (slot - set * ways_);
  }
  static constexpr std::uint64_t kReadyMask = 0xffffffffu;
  struct ReadyRef {
    std::size_t word;
    unsigned shift;
  };
  ReadyRef ready_ref(std::uint32_t slot, std::uint32_t sector) const {
    const std::uint32_t set = set_of(slot);
    const std::size_t entry = std::size_t{slot - set * ways_} * sectors_per_line_ + sector;
    return {std::size_t{set} * block_words_ + 2 * ways_ + entry / 2, static_cast<unsigned>(entry % 2) * 32};
  }
  // A fill more than 2^32 cycles after epoch_ (hours of simulated time at GHz clocks): move the
  // epoch to 2^31 cycles before it. Fill cycles older than the new epoch become the epoch: they
  // stay in the past, which is all any comparison with them asks.
  void rebase(sim::Cycle ready);
  std::uint64_t& tag_ref(std::uint32_t slot) { return words_[tag_index(slot)]; }
  const std::uint64_t& tag_ref(std::uint32_t slot) const { return words_[tag_index(slot)]; }
  std::uint64_t& meta_ref(std::uint32_t slot) { return words_[tag_index(slot) + ways_]; }
  const std::uint64_t& meta_ref(std::uint32_t slot) const { return words_[tag_index(slot) + ways_]; }

  std::uint32_t sets_ = 0, ways_ = 0, line_bytes_ = 0, sector_bytes_ = 0, sectors_per_line_ = 1;
  int ways_shift_ = -1;      // log2(ways) when ways is a power of two
  int line_shift_ = -1;      // log2(line_bytes) when a power of two
  int sector_shift_ = -1;    // log2(sector_bytes) when a power of two
  std::uint64_t clock_ = 0;  // LRU stamps: larger = more recent (2^40 accesses before wrapping)
  sim::Cycle epoch_ = 0;     // fill cycles are stored as offsets from it
  std::size_t block_words_ = 0;  // ways x (tag + metadata) + ways x sectors_per_line / 2 fill cycles
  struct FreeWords {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint64_t[], FreeWords> words_;  // large: allocated on huge pages when possible
};

}  // namespace warpsim::models::memory
