// SectorCache keeps fill cycles as 32-bit offsets from an epoch (sector_cache.hpp): exact while
// they fit, and after a fill 2^32 cycles later the epoch moves and older fills stay in the past.
#include <catch2/catch.hpp>

#include "models/memory/sector_cache.hpp"

using warpsim::models::memory::LineClass;
using warpsim::models::memory::SectorCache;
using warpsim::models::memory::SectorCacheGeometry;

TEST_CASE("sector fill cycles are exact within 2^32 cycles and stay in the past after a rebase", "[models][memory]") {
  SectorCache cache(SectorCacheGeometry{4 * 128 * 4, 128, 32, 4});  // 4 sets x 4 ways, 4 sectors
  const std::uint32_t a = cache.victim(0), b = cache.victim(1);
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
