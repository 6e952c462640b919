// The issue policies against their contract (issue_policy.hpp): which eligible warp each picks,
// and that a warp turned away by a full unit is reported with the cycle its unit has room.
#include <catch2/catch.hpp>

#include <array>

#include "models/core/issue_policies.hpp"

using namespace warpsim::models;
using warpsim::traces::Unit;

namespace {

// Four warps: 0 and 2 need the integer unit, 1 and 3 FP32, whose pool has room only from cycle 1.
struct FourWarps {
  std::array<Unit, 4> head{Unit::Int, Unit::Fp32, Unit::Int, Unit::Fp32};
  std::array<UnitPool, warpsim::traces::kUnitCount> units;
  std::array<std::uint64_t, 4> age{30, 10, 20, 0};  // warp 3 dispatched first, then 1, 2, 0
  FourWarps() {
    for (UnitPool& u : units) u.configure(32);
    units[static_cast<int>(Unit::Fp32)].consume(1);  // one warp instruction this cycle: full
  }
  IssueLook look(std::uint64_t eligible) { return IssueLook{eligible, head.data(), units.data(), age.data(), 4, 0}; }
};

}  // namespace

TEST_CASE("loose round robin takes the first eligible warp from where it left off (S2.6)", "[models][sm]") {
  FourWarps w;
  LooseRoundRobin::State state;
  state.next = 3;
  // Warp 3 is eligible but its unit is full: turned away and reported; the rotation wraps to 0.
  IssueChoice c = LooseRoundRobin::choose(state, w.look(0b1001));
  CHECK(c.warp == 0);
  CHECK(c.unit_busy);
  CHECK(c.unit_free == 1);
  LooseRoundRobin::issued(state, 0, 4);
  CHECK(state.next == 1);
  c = LooseRoundRobin::choose(state, w.look(0b0110));  // 1 is turned away, 2 goes
  CHECK(c.warp == 2);
  CHECK(c.unit_busy);
  c = LooseRoundRobin::choose(state, w.look(0b1010));  // both FP32 warps turned away: none
  CHECK(c.warp == 4);
  CHECK(c.unit_free == 1);
  LooseRoundRobin::issued(state, 3, 4);
  CHECK(state.next == 0);
}

TEST_CASE("greedy-then-oldest keeps the last warp while it can go, else the oldest that can", "[models][sm]") {
  FourWarps w;
  GreedyThenOldest::State state;
  state.greedy = 2;
  CHECK(GreedyThenOldest::choose(state, w.look(0b0101)).warp == 2);  // greedy, though 0 is there too
  // Greedy warp not eligible: the oldest eligible whose unit has room. 3 is older but its unit is full.
  const IssueChoice c = GreedyThenOldest::choose(state, w.look(0b1001));
  CHECK(c.warp == 0);
  CHECK(c.unit_busy);
  GreedyThenOldest::issued(state, 0, 4);
  CHECK(state.greedy == 0);
  CHECK(GreedyThenOldest::choose(state, w.look(0b0110)).warp == 2);  // 1 is older, but its unit is full
}

TEST_CASE("the policy table names each policy once, in the order sm.scheduler_policy indexes", "[models][sm]") {
  REQUIRE(IssuePolicies::kCount == 2);
  CHECK(IssuePolicies::index_of("lrr") == 0u);
  CHECK(IssuePolicies::index_of("gto") == 1u);
  CHECK_FALSE(IssuePolicies::index_of("two-level").has_value());
  CHECK(IssuePolicies::visit(1, []<class P>(std::type_identity<P>) { return P::kName; }) == "gto");
}
