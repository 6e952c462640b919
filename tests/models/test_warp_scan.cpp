// The schedulers' scans (warp_scan.hpp) against the plain definitions they implement, on random
// ready cycles: ties, cycles just below kNever = 2^63 - 1 (the vector code compares signed),
// kNever itself, every scheduler width a preset uses (Fermi 24, Kepler and Hopper 16, 64 at most).
#include <catch2/catch.hpp>
#include <vector>

#include "models/core/warp_scan.hpp"

using namespace warpsim;
using models::kNever;

TEST_CASE("ready_by and earliest agree with their definitions", "[models][sm]") {
  std::uint64_t state = 99;
  auto rnd = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 11;
  };
  for (std::uint32_t n : {2u, 16u, 24u, 48u, 64u}) {
    for (int trial = 0; trial < 2000; ++trial) {
      const sim::Cycle base = trial % 3 == 0 ? kNever - 16 : 1000;
      std::vector<sim::Cycle> ready(n);
      for (auto& r : ready) r = rnd() % 7 == 0 ? kNever : base + rnd() % 16;  // many ties
      const sim::Cycle now = base + rnd() % 16;
      const std::uint64_t candidates = rnd() & (n == 64 ? ~0ULL : (1ULL << n) - 1) & (trial % 5 ? ~0ULL : 0);

      std::uint64_t expected_ready = 0;
      models::Earliest expected{n, kNever};
      for (std::uint32_t i = 0; i < n; ++i) {
        if (ready[i] <= now) expected_ready |= 1ULL << i;
        if ((candidates >> i & 1) && ready[i] < expected.ready) expected = {i, ready[i]};
      }
      INFO("n " << n << " trial " << trial);
      REQUIRE(models::ready_by(ready.data(), n, now) == expected_ready);
      const models::Earliest got = models::earliest(ready.data(), n, candidates);
      REQUIRE(got.index == expected.index);
      REQUIRE(got.ready == expected.ready);
    }
  }
}
