#pragma once
// The seam a cache replacement policy plugs into (SectorCache). Every line carries a rank in the
// low 40 bits of its metadata word: within a set, the victim is the line of the lowest eviction
// class (streaming, then normal, then persisting: S4.1, S4.5), and among those the one of lowest
// rank, the first way on a tie. A policy says what rank a line gets and how ranks change:
//   P::kName, P::kDescription   the value of `l1.replacement` / `l2.replacement`, one line of help
//   P::inserted(clock)          the rank of a line just installed
//   P::hit(clock)               the rank of a line just hit
//   P::kAgesSet, P::aged(r, v)  when a valid line of rank v is chosen as the victim, every other
//                               line of its class in the set goes from rank r to aged(r, v)
// `clock` is the cache's access counter (40 bits), for policies that order lines by time.
// Everything else that must pick "the line to lose first" asks the same ranks: the L2's choice
// of which dirty line to write back early (SectorCache::dirty_lines).
//
// The L2's persisting budget (S4.3: when persisting lines exceed the set-aside, the least
// recently used persisting line is demoted) is the CUDA rule for the set-aside, not the set's
// replacement, and keeps its own recency list whatever the policy (l2_cache.hpp).
#include <concepts>
#include <cstdint>
#include <string_view>

namespace warpsim::models::memory {

inline constexpr std::uint64_t kRankMask = (std::uint64_t{1} << 40) - 1;

template <class P>
concept ReplacementPolicy = requires(std::uint64_t& clock, std::uint64_t rank) {
  { P::kName } -> std::convertible_to<std::string_view>;
  { P::kDescription } -> std::convertible_to<std::string_view>;
  { P::kAgesSet } -> std::convertible_to<bool>;
  { P::inserted(clock) } -> std::same_as<std::uint64_t>;
  { P::hit(clock) } -> std::same_as<std::uint64_t>;
  { P::aged(rank, rank) } -> std::same_as<std::uint64_t>;
};

}  // namespace warpsim::models::memory
