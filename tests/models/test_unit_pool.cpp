// UnitPool (S2.5): lane-slot credits per cycle, kept in 32 bits.
#include <catch2/catch.hpp>

#include "models/core/unit_pool.hpp"

using warpsim::models::UnitPool;

TEST_CASE("a unit pool issues lanes / 32 warp instructions a cycle and waits out replays", "[models][units]") {
  UnitPool fp32;
  fp32.configure(192);  // Kepler: 6 warp instructions a cycle
  int issued = 0;
  while (fp32.can_issue(10)) {
    fp32.consume(1);
    ++issued;
  }
  CHECK(issued == 6);
  CHECK(fp32.next_free(10) == 11);

  UnitPool sfu;
  sfu.configure(16);  // one warp instruction every other cycle
  CHECK(sfu.can_issue(0));
  sfu.consume(1);
  CHECK_FALSE(sfu.can_issue(1));
  CHECK(sfu.next_free(1) == 2);

  UnitPool ldst;
  ldst.configure(32);
  ldst.consume(32);  // a fully diverged access at cycle 0: 1 + 31 replays hold cycles 0-31
  CHECK(ldst.next_free(0) == 32);
  CHECK_FALSE(ldst.can_issue(31));
  CHECK(ldst.can_issue(32));
}

TEST_CASE("a unit pool at the largest lane count refills without overflow after a long sleep", "[models][units]") {
  // 2^20 lanes (units_spec.cpp's limit) idle for 10^12 cycles: the refill is capped at one cycle's
  // lanes, so the 32-bit credits hold exactly 32,768 warp instructions, not a wrapped count.
  UnitPool wide;
  wide.configure(1u << 20);
  wide.consume(32768);
  CHECK_FALSE(wide.can_issue(0));
  std::uint64_t issued = 0;
  while (wide.can_issue(1'000'000'000'000ull)) {
    wide.consume(1);
    ++issued;
  }
  CHECK(issued == 32768);
}
