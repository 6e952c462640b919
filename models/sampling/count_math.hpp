#pragma once
// Scaling a struct of counters (sim/attribution.hpp's kind: std::uint64_t fields only), for
// crediting skipped blocks with counts measured on others.
#include <bit>
#include <cstdint>

#include "sim/attribution.hpp"

namespace warpsim::models::sampling {

// Every counter of `c` times num / den, rounded to nearest.
template <class Counts>
Counts scaled(const Counts& c, std::uint64_t num, std::uint64_t den = 1) {
  using Words = typename sim::CountWords<Counts>::Words;
  Words w = std::bit_cast<Words>(c);
  for (auto& x : w) x = static_cast<std::uint64_t>((static_cast<unsigned __int128>(x) * num + den / 2) / den);
  return std::bit_cast<Counts>(w);
}

}  // namespace warpsim::models::sampling
