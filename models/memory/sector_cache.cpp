// See sector_cache.hpp.
#include "models/memory/sector_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/zero_pages.hpp"

namespace warpsim::models::memory {

namespace {

constexpr std::size_t kWordsAlignment = 64;

// A geometry's sets, and the words of each set's block: ways x (tag + metadata), then the ways'
// sector fill cycles, two to a word.
std::uint32_t sets_of(const SectorCacheGeometry& g) {
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, g.bytes / g.line_bytes / g.ways));
}
std::size_t block_words_of(const SectorCacheGeometry& g) {
  return std::size_t{g.ways} * 2 + (std::size_t{g.ways} * (g.line_bytes / g.sector_bytes) + 1) / 2;
}

}  // namespace

SectorCache::SectorCache(const SectorCacheGeometry& g, sim::ZeroPagesArena* arena) {
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
  if (g.replacement >= ReplacementPolicies::kCount) throw std::invalid_argument("cache replacement policy out of range");
  replacement_ = g.replacement;
  ages_set_ = ReplacementPolicies::visit(replacement_, []<class P>(std::type_identity<P>) { return P::kAgesSet; });
  clean_victims_first_ = g.clean_victims_first;
  sets_ = sets_of(g);
  if ((ways_ & (ways_ - 1)) == 0) ways_shift_ = __builtin_ctz(ways_);
  if ((line_bytes_ & (line_bytes_ - 1)) == 0) line_shift_ = __builtin_ctz(line_bytes_);
  if (line_shift_ >= 0 && (sector_bytes_ & (sector_bytes_ - 1)) == 0)
    sector_in_line_shift_ = __builtin_ctz(sector_bytes_);
  block_words_ = block_words_of(g);
  // Zero pages until first written: every line invalid (sector_cache.hpp), and nothing resident
  // until a set is used. An H100 L2 is ~13 MB of state touched at random, so it is advised as
  // huge pages (4 KB pages would add a TLB miss to most accesses). A small cache (an L1: ~57 KB,
  // one per SM) comes from its GPU's arena of L1s (gpu_memory_system.hpp, huge pages when it is
  // large), where the heap's calloc would clear it (writing every page; about a third of a short
  // run's page faults).
  const std::size_t bytes = block_words_ * sets_ * sizeof(std::uint64_t);
  const bool huge = sim::worth_huge_pages(bytes);  // a mapping of its own, not the arena's
  if (arena != nullptr && !huge) {
    words_ = std::unique_ptr<std::uint64_t[], UnmapWords>(
        static_cast<std::uint64_t*>(arena->take(bytes, kWordsAlignment)), UnmapWords{bytes, false, true});
    return;
  }
  words_ = std::unique_ptr<std::uint64_t[], UnmapWords>(
      static_cast<std::uint64_t*>(sim::allocate_zeroed(bytes, kWordsAlignment, huge)), UnmapWords{bytes, huge});
}

std::size_t SectorCache::arena_bytes(const SectorCacheGeometry& g) {
  if (g.bytes == 0 || g.line_bytes == 0 || g.ways == 0 || g.sector_bytes == 0) return 0;
  const std::size_t bytes = block_words_of(g) * sets_of(g) * sizeof(std::uint64_t);
  return sim::worth_huge_pages(bytes) ? 0 : sim::ZeroPagesArena::reserved(bytes, kWordsAlignment);
}

void UnmapWords::operator()(std::uint64_t* p) const {
  if (!in_arena) sim::free_zeroed(p, bytes, huge);
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

void SectorCache::age_set(std::uint32_t set, const Line& victim) {
  const std::uint64_t victim_rank = *victim.meta & kRankMask;
  const std::uint64_t victim_class = *victim.meta & (std::uint64_t{3} << kClassShift);
  const std::uint64_t* tags = block(set);
  std::uint64_t* meta = block(set) + ways_;
  ReplacementPolicies::visit(replacement_, [&]<class P>(std::type_identity<P>) {
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags[w] == kInvalidStored || (meta[w] & (std::uint64_t{3} << kClassShift)) != victim_class) continue;
      if (meta + w == victim.meta) continue;
      meta[w] = (meta[w] & ~kRankMask) | P::aged(meta[w] & kRankMask, victim_rank);
    }
  });
}

void SectorCache::invalidate_all() {
  if (!installed_) return;  // all invalid already (a kernel boundary finds most L1s unused)
  for (std::uint32_t set = 0; set < sets_; ++set) std::fill_n(block(set), 2 * ways_, std::uint64_t{0});
  installed_ = false;
}

}  // namespace warpsim::models::memory
