#pragma once
// The table of warp-scheduler issue policies (issue_policy.hpp). `sm.scheduler_policy` chooses
// one by name; its choices, the names `warpsim arch show` lists and the SM's compiled variants
// all come from the one list below. A new policy: its own header, and one entry here.
#include <tuple>

#include "models/core/greedy_then_oldest.hpp"
#include "models/core/issue_policy.hpp"
#include "models/core/loose_round_robin.hpp"
#include "sim/named_types.hpp"

namespace warpsim::models {

template <IssuePolicy... Policies>
struct IssuePolicyList : sim::NamedTypes<Policies...> {
  // Every policy's per-scheduler state, so that a scheduler has room for whichever one runs.
  using States = std::tuple<typename Policies::State...>;
};

// Add a policy here (and include its header above).
using IssuePolicies = IssuePolicyList<LooseRoundRobin, GreedyThenOldest>;

}  // namespace warpsim::models
