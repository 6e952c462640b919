// The schedulers' scans (warp_scan.hpp) against the plain definitions they implement, on random
// ready stamps: ties, stamps just below kNeverStamp = 2^31 - 1 (the vector code compares signed),
// kNeverStamp itself, every scheduler width a preset uses (Fermi 24, Kepler and Hopper 16, 64 at
// most); and the stamps' conversion to and from cycles across a rebase.
#include <catch2/catch.hpp>
#include <vector>

#include "models/core/warp_scan.hpp"

using namespace warpsim;
using models::kNever;
using models::kNeverStamp;
using models::Stamp;

TEST_CASE("look and earliest agree with their definitions", "[models][sm]") {
  std::uint64_t state = 99;
  auto rnd = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 11;
  };
  for (std::uint32_t n : {4u, 16u, 24u, 48u, 64u}) {
    for (int trial = 0; trial < 2000; ++trial) {
      const Stamp base = trial % 3 == 0 ? kNeverStamp - 16 : 1000;
      std::vector<Stamp> ready(n);
      for (auto& r : ready) r = rnd() % 7 == 0 ? kNeverStamp : static_cast<Stamp>(base + rnd() % 16);  // many ties
      const Stamp now = static_cast<Stamp>(base + rnd() % 16);
      const std::uint64_t candidates = rnd() & (n == 64 ? ~0ULL : (1ULL << n) - 1) & (trial % 5 ? ~0ULL : 0);

      std::uint64_t expected_ready = 0;
      models::Earliest expected{n, kNeverStamp}, expected_waiting{n, kNeverStamp};
      for (std::uint32_t i = 0; i < n; ++i) {
        if (ready[i] <= now) expected_ready |= 1ULL << i;
        if (ready[i] > now && ready[i] < expected_waiting.ready) expected_waiting = {i, ready[i]};
        if ((candidates >> i & 1) && ready[i] < expected.ready) expected = {i, ready[i]};
      }
      INFO("n " << n << " trial " << trial);
      const models::Look look = models::look(ready.data(), n, now);
      REQUIRE(look.ready == expected_ready);
      REQUIRE(look.waiting.index == expected_waiting.index);
      REQUIRE(look.waiting.ready == expected_waiting.ready);
      const models::Earliest got = models::earliest(ready.data(), n, candidates);
      REQUIRE(got.index == expected.index);
      REQUIRE(got.ready == expected.ready);
    }
  }
}

TEST_CASE("ready stamps convert cycles exactly and survive a rebase", "[models][sm]") {
  models::ReadyStamps stamps;
  REQUIRE(stamps.of(kNever) == kNeverStamp);
  REQUIRE(stamps.cycle(kNeverStamp) == kNever);
  REQUIRE(stamps.cycle(stamps.of(700)) == 700);
  const sim::Cycle base = models::ReadyStamps::kRebaseAfter;
  REQUIRE(stamps.needs_rebase(base));
  REQUIRE_FALSE(stamps.needs_rebase(base - 1));
  // Held before the rebase: one cycle in the past, two pending (one of them the new base), never.
  std::vector<Stamp> held = {stamps.of(500), stamps.of(base + 50), stamps.of(base), kNeverStamp};
  std::vector<Stamp> also_held = {stamps.of(base + 7)};  // a second array moves with the first
  stamps.rebase(base, {&held, &also_held});
  REQUIRE(also_held[0] == 7);
  REQUIRE_FALSE(stamps.needs_rebase(base));
  REQUIRE(held[0] == 0);       // in the past before, still in the past
  REQUIRE(held[1] == 50);      // pending: the same cycle, counted from the new base
  REQUIRE(held[2] == 0);
  REQUIRE(held[3] == kNeverStamp);
  REQUIRE(stamps.cycle(held[1]) == base + 50);
  REQUIRE(stamps.of(base + 50) == held[1]);
  // The scan agrees: at the new base, the past and the base are ready, the pending one is not.
  held.resize(4, kNeverStamp);
  REQUIRE(models::look(held.data(), 4, stamps.of(base)).ready == 0b0101);
  REQUIRE(models::look(held.data(), 4, stamps.of(base)).waiting.index == 1);
  REQUIRE(models::look(held.data(), 4, stamps.of(base + 50)).ready == 0b0111);
  REQUIRE(models::look(held.data(), 4, stamps.of(base + 50)).waiting.index == 4);  // none left
  // A wait a stamp cannot hold is refused, not shortened.
  REQUIRE_THROWS_AS(stamps.of(base + kNeverStamp), std::overflow_error);
}
