// The set scans of way_scan.hpp (vector compares where the build has SSE4.2) must answer as
// their plain definitions do, for every number of ways (not only multiples of the vector step),
// with the match or the lowest key anywhere, repeated, or absent.
#include <catch2/catch.hpp>

#include <vector>

#include "models/memory/way_scan.hpp"
#include "sim/rng.hpp"

using warpsim::models::memory::first_equal;
using warpsim::models::memory::lowest_way;

TEST_CASE("way scans equal their plain definitions", "[memory]") {
  warpsim::sim::Rng rng(9, "way-scan");
  constexpr std::uint64_t kKeyMask = (std::uint64_t{3} << 40) | ((std::uint64_t{1} << 40) - 1);
  for (std::uint32_t ways = 1; ways <= 70; ++ways) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<std::uint64_t> words(ways);
      // Few distinct values, so matches and equal keys are common; high bits outside the key.
      for (auto& w : words) w = (rng.next() % 6) | (rng.next() % 2 ? std::uint64_t{0xab} << 56 : 0);
      if (trial % 3 == 0) words[rng.next() % ways] = ~std::uint64_t{0};
      const std::uint64_t value = trial % 4 == 0 ? ~std::uint64_t{0} : rng.next() % 8;
      std::uint32_t first = ways;
      for (std::uint32_t w = ways; w-- > 0;)
        if (words[w] == value) first = w;
      std::uint32_t lowest = 0;
      for (std::uint32_t w = 0; w < ways; ++w)
        if ((words[w] & kKeyMask) < (words[lowest] & kKeyMask)) lowest = w;
      INFO("ways " << ways << " trial " << trial);
      REQUIRE(first_equal(words.data(), ways, value) == first);
      REQUIRE(lowest_way(words.data(), ways, kKeyMask) == lowest);
    }
  }
}
