#pragma once
// Static re-reference interval prediction, SRRIP-HP with 2-bit predictions (Jaleel et al., ISCA
// 2010). A line is predicted to be re-referenced soon (0), ... or distantly (3); new lines come
// in at 2 ("long"), a hit sets 0, and the victim is the first line predicted 3, after every
// line's prediction has grown until one is. A line hit once survives a scan of new lines that
// LRU would lose it to. Here rank = 3 - prediction, so the lowest rank goes first, and the
// growing is aging every line of the victim's class by the victim's rank.
#include <cstdint>
#include <string_view>

#include "models/memory/replacement_policy.hpp"

namespace warpsim::models::memory {

struct SrripReplacement {
  static constexpr std::string_view kName = "srrip";
  static constexpr std::string_view kDescription = "static re-reference interval prediction (2-bit, hit priority)";
  static constexpr bool kAgesSet = true;
  static constexpr std::uint64_t kDistant = 3;  // the prediction of a line that goes next
  static std::uint64_t inserted(std::uint64_t& /*clock*/) { return kDistant - 2; }
  static std::uint64_t hit(std::uint64_t& /*clock*/) { return kDistant - 0; }
  static std::uint64_t aged(std::uint64_t rank, std::uint64_t victim) { return rank > victim ? rank - victim : 0; }
};

}  // namespace warpsim::models::memory
