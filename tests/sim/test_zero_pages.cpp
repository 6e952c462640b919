// Zeroed memory (sim/zero_pages.hpp): the arena's pieces are zero, aligned, apart from each
// other, start at varied offsets of their pages as heap blocks would, and a full arena refuses.
// A GPU's L1s come from one arena: their words are zero, so every line starts invalid. An arena
// of two huge pages or more (an H100's warp slots, its L1s) is advised as transparent huge pages.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <set>
#include <vector>

#include "models/memory/sector_cache.hpp"
#include "sim/zero_pages.hpp"
#include "tests/sim/smaps.hpp"

using warpsim::sim::ZeroPagesArena;

using warpsim::test::advised_huge;
using warpsim::test::host_has_huge_pages;

TEST_CASE("an arena's pieces are zeroed, aligned, disjoint and at varied page offsets", "[zero_pages]") {
  constexpr std::size_t kPiece = 58 * 1024 + 256, kCount = 16;
  ZeroPagesArena arena(kCount * ZeroPagesArena::reserved(kPiece, 64));
  std::vector<std::byte*> pieces;
  std::set<std::uintptr_t> page_offsets;
  for (std::size_t i = 0; i < kCount; ++i) {
    auto* p = static_cast<std::byte*>(arena.take(kPiece, 64));
    REQUIRE(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
    REQUIRE(std::all_of(p, p + kPiece, [](std::byte b) { return b == std::byte{0}; }));
    std::memset(p, 0xab, kPiece);  // each piece written whole: a neighbour's bytes would change
    pieces.push_back(p);
    page_offsets.insert(reinterpret_cast<std::uintptr_t>(p) % 4096);
  }
  for (std::size_t i = 0; i + 1 < kCount; ++i) REQUIRE(pieces[i] + kPiece <= pieces[i + 1]);
  for (std::byte* p : pieces) REQUIRE(std::all_of(p, p + kPiece, [](std::byte b) { return b == std::byte{0xab}; }));
  // Pieces each starting a page put their hot first lines on the same host cache sets.
  CHECK(page_offsets.size() == kCount);
  CHECK_THROWS_AS(arena.take(kPiece, 64), std::bad_alloc);
}

TEST_CASE("an arena moved keeps its pieces; an empty arena gives none", "[zero_pages]") {
  ZeroPagesArena arena(ZeroPagesArena::reserved(4096, 64));
  auto* piece = static_cast<unsigned char*>(arena.take(64, 64));
  piece[0] = 7;
  ZeroPagesArena moved(std::move(arena));
  CHECK(piece[0] == 7);
  CHECK_THROWS_AS(arena.take(64, 64), std::bad_alloc);  // NOLINT(bugprone-use-after-move): emptied
  ZeroPagesArena none;
  CHECK_THROWS_AS(none.take(1, 64), std::bad_alloc);
}

TEST_CASE("a large arena is zero, 2 MiB aligned and advised as huge pages; its pieces as a small one's", "[zero_pages]") {
  constexpr std::size_t kPiece = 123 * 1024, kCount = 34;  // an H100 SM's warp slots, 34 SMs
  REQUIRE(warpsim::sim::worth_huge_pages(kCount * kPiece));
  ZeroPagesArena arena(kCount * ZeroPagesArena::reserved(kPiece, 64));
  std::set<std::uintptr_t> page_offsets;
  std::byte* previous_end = nullptr;
  for (std::size_t i = 0; i < kCount; ++i) {
    auto* p = static_cast<std::byte*>(arena.take(kPiece, 64));
    if (i == 0) CHECK(reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t{2} << 20) < 4096);  // the mapping starts a huge page
    REQUIRE(std::all_of(p, p + kPiece, [](std::byte b) { return b == std::byte{0}; }));
    if (previous_end != nullptr) REQUIRE(previous_end <= p);
    std::memset(p, 0xcd, kPiece);
    previous_end = p + kPiece;
    page_offsets.insert(reinterpret_cast<std::uintptr_t>(p) % 4096);
  }
  // Each piece at its own page offset until they come round again (a piece of 123 KB and its
  // 80-byte gap, 64-byte aligned, move the next one 3,200 bytes on in its page: 32 offsets before
  // they repeat); pieces each starting a page would all have one.
  CHECK(page_offsets.size() == 32);
  CHECK_THROWS_AS(arena.take(kPiece, 64), std::bad_alloc);
  if (host_has_huge_pages()) CHECK(advised_huge(previous_end - 1));
  ZeroPagesArena moved(std::move(arena));  // gives back the whole mapping once, at the end
  CHECK(previous_end[-1] == std::byte{0xcd});
  ZeroPagesArena small(ZeroPagesArena::reserved(4096, 64));  // one page: not worth a huge one
  if (host_has_huge_pages()) CHECK_FALSE(advised_huge(small.take(64, 64)));
}

TEST_CASE("caches made from an arena start with every line invalid and have room there", "[zero_pages]") {
  using warpsim::models::memory::SectorCache;
  using warpsim::models::memory::SectorCacheGeometry;
  const SectorCacheGeometry l1{256 * 1024, 128, 32, 4, 0};
  ZeroPagesArena arena(3 * SectorCache::arena_bytes(l1));
  std::vector<SectorCache> caches;
  caches.reserve(3);
  for (int i = 0; i < 3; ++i) caches.emplace_back(l1, &arena);  // a fourth would not fit
  for (const SectorCache& cache : caches)
    for (std::uint32_t slot = 0; slot < cache.line_count(); ++slot) REQUIRE_FALSE(cache.valid(cache.line_at(slot)));
  CHECK_THROWS_AS(SectorCache(l1, &arena), std::bad_alloc);
  // A cache large enough for huge pages is mapped apart, taking nothing of an arena.
  CHECK(SectorCache::arena_bytes(SectorCacheGeometry{64u << 20, 128, 32, 16, 0}) == 0);
}
