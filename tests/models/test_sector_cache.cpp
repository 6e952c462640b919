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

TEST_CASE("filling sectors each at its own cycle equals filling them one by one", "[models][memory]") {
  // Sector 0's fill is far enough ahead to move the epoch to 2^31 cycles before it; sector 1's
  // then fits just after the new epoch, and sector 2's still fits without another move. A single
  // move for the latest fill would have left sector 1 behind the epoch.
  const std::uint64_t far = std::uint64_t{1} << 33, half = std::uint64_t{1} << 31;
  const warpsim::sim::Cycle ready[4] = {far, far - half + 10, far + half - 100, 7};
  const SectorCacheGeometry geometry{2 * 128 * 2, 128, 32, 2};
  SectorCache each(geometry), one_by_one(geometry);
  for (SectorCache* c : {&each, &one_by_one}) {
    c->install(c->line_at(0), 4, LineClass::Normal);
    c->install(c->line_at(1), 6, LineClass::Normal);
    c->fill_sectors(c->line_at(1), 0b1111, 500);
  }
  each.fill_sectors_each(each.line_at(0), 0b1111, ready);
  for (std::uint32_t s = 0; s < 4; ++s) one_by_one.fill_sector(one_by_one.line_at(0), s, ready[s]);
  for (std::uint32_t slot = 0; slot < 2; ++slot) {
    CHECK(each.valid_mask(each.line_at(slot)) == one_by_one.valid_mask(one_by_one.line_at(slot)));
    for (std::uint32_t s = 0; s < 4; ++s) {
      INFO("slot " << slot << " sector " << s);
      CHECK(each.sector_ready(each.line_at(slot), s) == one_by_one.sector_ready(one_by_one.line_at(slot), s));
    }
  }
  for (std::uint32_t s = 0; s < 3; ++s) CHECK(each.sector_ready(each.line_at(0), s) == ready[s]);
}
