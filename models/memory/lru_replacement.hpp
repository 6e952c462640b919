#pragma once
// Least recently used: a line's rank is the cache's access count when it was last installed or
// hit, so the lowest rank is the line untouched longest.
#include <cstdint>
#include <string_view>

#include "models/memory/replacement_policy.hpp"

namespace warpsim::models::memory {

struct LruReplacement {
  static constexpr std::string_view kName = "lru";
  static constexpr std::string_view kDescription = "least recently used";
  static constexpr bool kAgesSet = false;
  static std::uint64_t inserted(std::uint64_t& clock) { return ++clock & kRankMask; }
  static std::uint64_t hit(std::uint64_t& clock) { return ++clock & kRankMask; }
  static std::uint64_t aged(std::uint64_t rank, std::uint64_t /*victim*/) { return rank; }
};

}  // namespace warpsim::models::memory
