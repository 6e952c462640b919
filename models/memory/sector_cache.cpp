// See sector_cache.hpp.
#include "models/memory/sector_cache.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace warpsim::models::memory {

SectorCache::SectorCache(const SectorCacheGeometry& g) {
  if (g.bytes == 0) return;  // no cache of this kind (e.g. Hopper's separate read-only cache)
  if (g.line_bytes == 0 || g.sector_bytes == 0 || g.ways == 0 || g.line_bytes % g.sector_bytes != 0 ||
      g.line_bytes / g.sector_bytes > kMaxSectorsPerLine)
    throw std::invalid_argument("cache geometry: line " + std::to_string(g.line_bytes) + " B must be 1 to " +
                                std::to_string(kMaxSectorsPerLine) + " sectors of " +
                                std::to_string(g.sector_bytes) + " B");
  line_bytes_ = g.line_bytes;
  sector_bytes_ = g.sector_bytes;
  sectors_per_line_ = g.line_bytes / g.sector_bytes;
  ways_ = g.ways;
  sets_ = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, g.bytes / g.line_bytes / g.ways));
  if ((ways_ & (ways_ - 1)) == 0) ways_shift_ = __builtin_ctz(ways_);
  if ((line_bytes_ & (line_bytes_ - 1)) == 0) line_shift_ = __builtin_ctz(line_bytes_);
  if (line_shift_ >= 0 && (sector_bytes_ & (sector_bytes_ - 1)) == 0)
    sector_in_line_shift_ = __builtin_ctz(sector_bytes_);
  block_words_ = std::size_t{ways_} * 2 + (std::size_t{ways_} * sectors_per_line_ + 1) / 2;
  // 2 MB-aligned and advised as huge pages before first touch: an H100 L2 is ~40 MB of state
  // touched at random, and 4 KB pages would add a TLB miss to most accesses.
  // Small caches (an L1: ~100 KB, one per SM) stay on ordinary 64-byte-aligned memory.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t bytes = block_words_ * sets_ * sizeof(std::uint64_t);
  const bool huge = bytes >= 4 * kHugePage;
  const std::size_t alignment = huge ? kHugePage : 64;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* memory = std::aligned_alloc(alignment, rounded);
  if (memory == nullptr) throw std::bad_alloc();
#ifdef __linux__
  if (huge) madvise(memory, rounded, MADV_HUGEPAGE);  // advice only: harmless if refused
#endif
  std::memset(memory, 0, bytes);  // untyped: tags and metadata are read as 64-bit words, fills as 32-bit
  words_.reset(static_cast<std::uint64_t*>(memory));
  invalidate_all();
}

void SectorCache::rebase(sim::Cycle ready) {
  const sim::Cycle epoch = ready - (kReadyMask + 1) / 2;
  const std::size_t entries = std::size_t{ways_} * sectors_per_line_;
  for (std::uint32_t set = 0; set < sets_; ++set) {
    std::uint32_t* fills = fills_of(set);
    for (std::size_t e = 0; e < entries; ++e) {
      const sim::Cycle cycle = epoch_ + fills[e];
      fills[e] = static_cast<std::uint32_t>(cycle > epoch ? cycle - epoch : 0);
    }
  }
  epoch_ = epoch;
}

void SectorCache::invalidate_all() {
  for (std::uint32_t set = 0; set < sets_; ++set) {
    std::uint64_t* tags = block(set);
    std::fill(tags, tags + ways_, kInvalidTag);
    std::fill(tags + ways_, tags + 2 * ways_, pack(0, LineClass::Normal, 0, 0));
  }
}

}  // namespace warpsim::models::memory
