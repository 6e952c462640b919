#pragma once
// A set-associative sectored cache: tags per line, a valid and a dirty bit per sector, the cycle
// each sector's fill arrives (so a later miss to a sector already being fetched waits for that
// fill instead of fetching again), LRU stamps, and an eviction class per line (streaming lines
// go first, persisting lines last: S4.1, S4.5). Only state: no timing and no policy about what
// to do on a miss; L1, the read-only cache and L2 build on it. Flat arrays, no allocation after
// construction.
#include <cstdint>
#include <vector>

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

  // The set a line number (address / line_bytes) maps to when the caller does not choose.
  std::uint32_t default_set(std::uint64_t line_number) const {
    return static_cast<std::uint32_t>(line_number % sets_);
  }

  // The slot holding `line_number` in `set`, or kNone.
  std::uint32_t find(std::uint32_t set, std::uint64_t line_number) const {
    const std::uint32_t first = set * ways_;
    for (std::uint32_t i = first; i < first + ways_; ++i)
      if (tag_[i] == line_number) return i;
    return kNone;
  }
  // The slot to replace in `set`: an invalid one, else the least recently used of the lowest
  // eviction class present (streaming before normal before persisting).
  std::uint32_t victim(std::uint32_t set) const {
    const std::uint32_t first = set * ways_;
    std::uint32_t best = first;
    for (std::uint32_t i = first; i < first + ways_; ++i) {
      if (tag_[i] == kInvalidTag) return i;
      if (class_[i] < class_[best] || (class_[i] == class_[best] && lru_[i] < lru_[best])) best = i;
    }
    return best;
  }
  // Replaces the slot's line (the caller has handled what was there) with an empty line.
  void install(std::uint32_t slot, std::uint64_t line_number, LineClass cls) {
    tag_[slot] = line_number;
    valid_[slot] = 0;
    dirty_[slot] = 0;
    class_[slot] = cls;
    lru_[slot] = ++clock_;
  }
  void invalidate(std::uint32_t slot) {
    tag_[slot] = kInvalidTag;
    valid_[slot] = 0;
    dirty_[slot] = 0;
    class_[slot] = LineClass::Normal;
  }
  void invalidate_all();
  void touch(std::uint32_t slot) { lru_[slot] = ++clock_; }

  bool valid(std::uint32_t slot) const { return tag_[slot] != kInvalidTag; }
  std::uint64_t tag(std::uint32_t slot) const { return tag_[slot]; }
  bool sector_valid(std::uint32_t slot, std::uint32_t sector) const { return (valid_[slot] >> sector) & 1u; }
  std::uint8_t valid_mask(std::uint32_t slot) const { return valid_[slot]; }
  std::uint8_t dirty_mask(std::uint32_t slot) const { return dirty_[slot]; }
  sim::Cycle sector_ready(std::uint32_t slot, std::uint32_t sector) const {
    return ready_[slot * sectors_per_line_ + sector];
  }
  void fill_sector(std::uint32_t slot, std::uint32_t sector, sim::Cycle ready) {
    valid_[slot] = static_cast<std::uint8_t>(valid_[slot] | (1u << sector));
    ready_[slot * sectors_per_line_ + sector] = ready;
  }
  void mark_dirty(std::uint32_t slot, std::uint32_t sector) {
    dirty_[slot] = static_cast<std::uint8_t>(dirty_[slot] | (1u << sector));
  }
  void clean(std::uint32_t slot) { dirty_[slot] = 0; }
  LineClass line_class(std::uint32_t slot) const { return class_[slot]; }
  void set_line_class(std::uint32_t slot, LineClass cls) { class_[slot] = cls; }

 private:
  static constexpr std::uint64_t kInvalidTag = ~std::uint64_t{0};
  std::uint32_t sets_ = 0, ways_ = 0, line_bytes_ = 0, sector_bytes_ = 0, sectors_per_line_ = 1;
  std::uint64_t clock_ = 0;  // LRU stamps: larger = more recent
  std::vector<std::uint64_t> tag_;
  std::vector<std::uint64_t> lru_;
  std::vector<sim::Cycle> ready_;
  std::vector<std::uint8_t> valid_, dirty_;
  std::vector<LineClass> class_;
};

}  // namespace warpsim::models::memory
