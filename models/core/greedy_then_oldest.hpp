#pragma once
// Greedy then oldest (GTO, as in GPGPU-Sim): keep issuing from the warp that issued last while it
// can; otherwise the oldest eligible warp (the first dispatched) whose unit has room.
#include <cstdint>
#include <string_view>

#include "models/core/issue_policy.hpp"

namespace warpsim::models {

struct GreedyThenOldest {
  static constexpr std::string_view kName = "gto";
  static constexpr std::string_view kDescription = "greedy-then-oldest";
  // GTO has always looked again the cycle after every issue. Letting it sleep leaves every cycle
  // count of scripts/reference-runs as it is but moves a few stall cycles between reasons (the
  // gto run on hopper-h100: stall_no_eligible 0.5825% -> 0.5792%, the difference to ALU and
  // memory dependency), so it would be a results change of its own.
  static constexpr bool kSleepsAfterLoneIssue = false;

  struct State {
    std::uint32_t greedy = 0;  // the warp that issued last
  };

  static IssueChoice choose(const State& state, const IssueLook& look) {
    IssueChoice choice{look.warps};
    const std::uint32_t g = state.greedy;
    if ((look.eligible >> g & 1) && look.units[static_cast<int>(look.head_unit[g])].can_issue(look.now)) {
      choice.warp = g;
      return choice;
    }
    for (std::uint64_t c = look.eligible; c != 0; c &= c - 1) {
      const std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctzll(c));
      if (!look.unit_has_room(i, choice)) continue;
      if (choice.warp == look.warps || look.age[i] < look.age[choice.warp]) choice.warp = i;
    }
    return choice;
  }

  static void issued(State& state, std::uint32_t warp, std::uint32_t /*warps*/) { state.greedy = warp; }
};

}  // namespace warpsim::models
