#pragma once
// Loose round robin (S2.6): the schedulers serve their warps fairly, switching every cycle. The
// first eligible warp at or after the one following the last issuer goes; the search wraps.
#include <cstdint>
#include <string_view>

#include "models/core/issue_policy.hpp"

namespace warpsim::models {

struct LooseRoundRobin {
  static constexpr std::string_view kName = "lrr";
  static constexpr std::string_view kDescription = "fair rotation every cycle (S2.6)";
  // It tries eligible warps in rotation order until one's unit has room, so it is
  // work-conserving and reports every warp it turned away (issue_policy.hpp).
  static constexpr bool kSleepsAfterLoneIssue = true;

  struct State {
    std::uint32_t next = 0;  // the warp the rotation looks at first
  };

  static IssueChoice choose(const State& state, const IssueLook& look) {
    IssueChoice choice{look.warps};
    for (std::uint64_t c = look.eligible; c != 0;) {
      const std::uint32_t i = first_from(c, state.next);
      if (look.unit_has_room(i, choice)) {
        choice.warp = i;
        break;
      }
      c &= ~(std::uint64_t{1} << i);
    }
    return choice;
  }

  static void issued(State& state, std::uint32_t warp, std::uint32_t warps) {
    state.next = warp + 1 == warps ? 0 : warp + 1;
  }

  // The lowest index set in `candidates` (not 0) at or after `start`, else the lowest set at all.
  static std::uint32_t first_from(std::uint64_t candidates, std::uint32_t start) {
    const std::uint64_t after = candidates >> start << start;
    return static_cast<std::uint32_t>(__builtin_ctzll(after != 0 ? after : candidates));
  }
};

}  // namespace warpsim::models
