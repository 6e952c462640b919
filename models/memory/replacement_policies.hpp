#pragma once
// The table of cache replacement policies (replacement_policy.hpp). `l1.replacement` (the L1 and
// the read-only cache) and `l2.replacement` choose one by name; their choices come from this list.
// A new policy: its own header, and one entry here.
#include "models/memory/lru_replacement.hpp"
#include "models/memory/replacement_policy.hpp"
#include "models/memory/srrip_replacement.hpp"
#include "sim/named_types.hpp"

namespace warpsim::models::memory {

template <ReplacementPolicy... Policies>
struct ReplacementPolicyList : sim::NamedTypes<Policies...> {};

// Add a policy here (and include its header above).
using ReplacementPolicies = ReplacementPolicyList<LruReplacement, SrripReplacement>;

}  // namespace warpsim::models::memory
