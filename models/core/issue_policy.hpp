#pragma once
// The seam a warp-scheduler issue policy plugs into (S2.1, S2.6). Each cycle a scheduler looks
// at its warps; the SM works out which are eligible (operands ready, not at a barrier) and the
// policy picks one whose execution unit has room. A policy is a type, not an object behind a
// virtual call: the SM is compiled once per policy (Sm::issue_due) and chooses among them once
// per tick, so the choice inlines into the scan of every look.
//
// A policy P provides (checked by the IssuePolicy concept below):
//   P::kName                       the value of `sm.scheduler_policy` that selects it
//   P::kDescription                one line for `warpsim arch show`
//   P::State                       what it remembers per scheduler (plain data, zero-initialised)
//   P::choose(state, look)         the warp to issue from, or none (IssueChoice)
//   P::issued(state, warp, warps)  the chosen warp issued: update the state
//   P::kSleepsAfterLoneIssue       the "next look" contract, below
//
// The next look. After an issue, the SM decides when the scheduler looks again. When the policy
// says kSleepsAfterLoneIssue and, at this look, no other warp was eligible and no unit turned an
// eligible warp away (IssueChoice::unit_busy), the scheduler sleeps until its closest warp's
// operands land: nothing can issue before then. That is only right for a policy that
//   - never leaves an eligible warp unissued when its unit has room (it is work-conserving), and
//   - reports every eligible warp it passed over because its unit was full (unit_busy and
//     unit_free), so the SM can wake it when the unit has room again.
// A policy that cannot promise both sets kSleepsAfterLoneIssue = false: after every issue its
// scheduler looks again the next cycle, which is always right and only slower. The issues are
// the same either way; the stall reason of the cycles until the next issue is taken once, at the
// issue, instead of at each look, so the stall breakdown may differ a little (GTO: see its header).
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <utility>

#include "models/core/unit_pool.hpp"
#include "models/core/warp_scan.hpp"
#include "traces/instruction.hpp"

namespace warpsim::models {

struct IssueChoice {
  std::uint32_t warp;             // the warp to issue from; IssueLook::warps when none
  bool unit_busy = false;         // an eligible warp was turned away because its unit was full
  sim::Cycle unit_free = kNever;  // with unit_busy: the first cycle one of those units has room
};

// What one scheduler's look offers the policy. Warp indices run from 0 to `warps` - 1; bit i of
// a mask is warp i.
struct IssueLook {
  std::uint64_t eligible;         // operands ready and not at a barrier: may issue if its unit has room
  const traces::Unit* head_unit;  // by warp: the unit its next instruction needs
  UnitPool* units;                // by traces::Unit: this scheduler's unit pools
  const std::uint64_t* age;       // by warp: dispatch order, lower is older
  std::uint32_t warps;            // warps the scheduler holds at most; also "no warp chosen"
  sim::Cycle now;

  // Whether warp `i`'s unit can take it this cycle; when not, `choice` learns when it can.
  bool unit_has_room(std::uint32_t i, IssueChoice& choice) const;
};

inline bool IssueLook::unit_has_room(std::uint32_t i, IssueChoice& choice) const {
  UnitPool& u = units[static_cast<int>(head_unit[i])];
  if (u.can_issue(now)) return true;
  choice.unit_busy = true;
  choice.unit_free = std::min(choice.unit_free, u.next_free(now));
  return false;
}

template <class P>
concept IssuePolicy = std::default_initializable<typename P::State> &&
    requires(typename P::State& state, const IssueLook& look, std::uint32_t warp) {
      { P::kName } -> std::convertible_to<std::string_view>;
      { P::kDescription } -> std::convertible_to<std::string_view>;
      { P::kSleepsAfterLoneIssue } -> std::convertible_to<bool>;
      { P::choose(std::as_const(state), look) } -> std::same_as<IssueChoice>;
      { P::issued(state, warp, warp) } -> std::same_as<void>;
    };

}  // namespace warpsim::models
