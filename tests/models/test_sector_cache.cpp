// SectorCache keeps fill cycles as 32-bit offsets from an epoch (sector_cache.hpp): exact while
// they fit, and after a fill 2^32 cycles later the epoch moves and older fills stay in the past.
#include <catch2/catch.hpp>

#include "models/memory/sector_cache.hpp"

using warpsim::models::memory::LineClass;
using warpsim::models::memory::SectorCache;
using warpsim::models::memory::SectorCacheGeometry;

TEST_CASE("sector fill cycles are exact within 2^32 cycles and stay in the past after a rebase", "[models][memory]") {
  SectorCache cache(SectorCacheGeometry{4 * 128 * 4, 128, 32, 4});  // 4 sets x 4 ways, 4 sectors
  const SectorCache::Line a = cache.victim(0), b = cache.victim(1);
  cache.install(a, 0, LineClass::Normal);
  cache.install(b, 1, LineClass::Normal);
  // Neighbouring sectors share a 64-bit word: writing one must not disturb the other.
  cache.fill_sector(a, 0, 1'000);
  cache.fill_sector(a, 1, 4'000'000'000ULL);
  cache.fill_sector(a, 3, 7);
  CHECK(cache.sector_ready(a, 0) == 1'000);
  CHECK(cache.sector_ready(a, 1) == 4'000'000'000ULL);
  CHECK(cache.sector_ready(a, 3) == 7);
  CHECK(cache.sector_valid(a, 0));
  CHECK_FALSE(cache.sector_valid(a, 2));

  // 2^40: far beyond 32 bits from the epoch (0). The new fill is exact; the old ones read as
  // cycles no later than the new epoch (2^40 - 2^31), i.e. still long past.
  const std::uint64_t late = std::uint64_t{1} << 40;
  cache.fill_sector(b, 2, late);
  CHECK(cache.sector_ready(b, 2) == late);
  CHECK(cache.sector_ready(a, 0) <= late - (std::uint64_t{1} << 31));
  CHECK(cache.sector_ready(a, 1) <= late - (std::uint64_t{1} << 31));
  // Later fills near the new epoch are exact again.
  cache.fill_sector(a, 0, late + 12345);
  CHECK(cache.sector_ready(a, 0) == late + 12345);
  CHECK(cache.sector_ready(b, 2) == late);
}

TEST_CASE("filling several sectors at once sets exactly those sectors", "[models][memory]") {
  // 3 ways of 4 sectors: a line's fill cycles start in the middle of a word for odd ways.
  SectorCache cache(SectorCacheGeometry{2 * 128 * 3, 128, 32, 3});
  for (std::uint32_t way = 0; way < 3; ++way) {
    const SectorCache::Line line = cache.victim(1);
    cache.install(line, 1 + 2 * way, LineClass::Normal);
    cache.fill_sector(line, 0, 11);
    cache.fill_sector(line, 3, 33);
    cache.fill_sectors(line, 0b0110, 500 + way);
    CHECK(cache.valid_mask(line) == 0b1111);
    CHECK(cache.sector_ready(line, 0) == 11);
    CHECK(cache.sector_ready(line, 1) == 500 + way);
    CHECK(cache.sector_ready(line, 2) == 500 + way);
    CHECK(cache.sector_ready(line, 3) == 33);
  }
  // The other ways' cycles were not disturbed by the later ones.
  for (std::uint32_t slot = 3; slot < 6; ++slot) CHECK(cache.sector_ready(cache.line_at(slot), 1) == 500 + (slot - 3));
}

TEST_CASE("find_or_install touches a resident line and replaces the least recently used one for a new line",
          "[models][memory]") {
  SectorCache cache(SectorCacheGeometry{1 * 128 * 2, 128, 32, 2});  // one set of 2 ways
  bool present = true;
  const SectorCache::Line a = cache.find_or_install(10, LineClass::Normal, present);
  CHECK_FALSE(present);
  CHECK(cache.valid_mask(a) == 0);  // installed empty: the caller fills what it has
  cache.fill_sectors(a, 0b0011, 5);
  const SectorCache::Line b = cache.find_or_install(11, LineClass::Normal, present);
  CHECK_FALSE(present);
  CHECK(b.slot != a.slot);
  // Line 10 again: the same slot, its sectors kept, and now the most recently used...
  CHECK(cache.find_or_install(10, LineClass::Normal, present).slot == a.slot);
  CHECK(present);
  CHECK(cache.valid_mask(a) == 0b0011);
  // ... so a third line replaces line 11, not line 10.
  CHECK(cache.find_or_install(12, LineClass::Normal, present).slot == b.slot);
  CHECK_FALSE(present);
  CHECK(cache.tag(b) == 12);
  CHECK(cache.tag(cache.line_at(b.slot)) == 12);  // a slot's handle reaches the same line
  CHECK(cache.find(0, 10).slot == a.slot);
  CHECK_FALSE(cache.find(0, 11).found());
}

TEST_CASE("line and sector of an address: shifts for power-of-two sizes, division otherwise", "[models][memory]") {
  // Every preset's sizes are powers of two and take the shift path; a 96-byte line of three
  // 32-byte sectors and a 128-byte line of two 64-byte sectors check both paths against plain
  // division, on addresses around line and sector boundaries and far up in the address space.
  struct Case {
    std::uint32_t line, sector;
  };
  for (const Case c : {Case{128, 32}, Case{128, 64}, Case{32, 32}, Case{96, 32}, Case{96, 48}}) {
    const SectorCache cache(SectorCacheGeometry{std::uint64_t{c.line} * 4 * 8, c.line, c.sector, 4});
    for (const std::uint64_t base : {std::uint64_t{0}, std::uint64_t{1} << 20, (std::uint64_t{1} << 47) + 96 * 128}) {
      for (std::uint64_t a = base; a < base + 4 * c.line; a += 7) {
        INFO("line " << c.line << " sector " << c.sector << " address " << a);
        CHECK(cache.line_of(a) == a / c.line);
        CHECK(cache.sector_of(a) == a % c.line / c.sector);
      }
    }
  }
}
