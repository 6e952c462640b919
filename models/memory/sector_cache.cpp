// See sector_cache.hpp.
#include "models/memory/sector_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

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
  const std::size_t lines = std::size_t{sets_} * ways_;
  tag_.assign(lines, kInvalidTag);
  lru_.assign(lines, 0);
  ready_.assign(lines * sectors_per_line_, 0);
  valid_.assign(lines, 0);
  dirty_.assign(lines, 0);
  class_.assign(lines, LineClass::Normal);
}

void SectorCache::invalidate_all() {
  std::fill(tag_.begin(), tag_.end(), kInvalidTag);
  std::fill(valid_.begin(), valid_.end(), 0);
  std::fill(dirty_.begin(), dirty_.end(), 0);
  std::fill(class_.begin(), class_.end(), LineClass::Normal);
}

}  // namespace warpsim::models::memory
