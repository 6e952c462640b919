#pragma once
// The two scans a warp scheduler makes over its warps' ready cycles (SPEC S2.1, S2.6): which
// warps are ready now, and which waiting warp becomes ready first. A scheduler owns at most 64
// warps (16 on Kepler and Hopper), and every cycle that issues runs these scans, so they are
// written as SSE4.2 vector compares where the build allows it (two warps per compare, fully
// unrolled for 16 warps), with a plain loop that gives the same answers otherwise.
//
// `ready` holds `n` cycles, n even; entries past the scheduler's warps hold kNever. Cycles stay
// below 2^63, so the vector code may compare them as signed numbers.
#include <cstdint>
#include <limits>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

#include "sim/time.hpp"

namespace warpsim::models {

inline constexpr sim::Cycle kNever = std::numeric_limits<std::int64_t>::max();

struct Earliest {
  std::uint32_t index;  // n when there are no candidates
  sim::Cycle ready;     // kNever when there are no candidates
};

namespace scan_detail {

#if defined(__SSE4_2__)
inline __m128i load_pair(const sim::Cycle* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// kFixed != 0: the width is known at compile time and the loop unrolls completely.
template <std::uint32_t kFixed>
std::uint64_t late_mask(const sim::Cycle* ready, std::uint32_t n, sim::Cycle now) {
  const std::uint32_t width = kFixed != 0 ? kFixed : n;
  const __m128i limit = _mm_set1_epi64x(static_cast<std::int64_t>(now));
  std::uint64_t late = 0;
  for (std::uint32_t i = 0; i < width; i += 2)
    late |= std::uint64_t(_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpgt_epi64(load_pair(ready + i), limit)))) << i;
  return late;
}

// One pass, two warps per step: each lane keeps the smallest ready cycle it has seen among the
// candidates (non-candidates read as kNever) and the index it came from; strict comparison
// keeps the lowest index among equals.
template <std::uint32_t kFixed>
Earliest earliest(const sim::Cycle* ready, std::uint32_t n, std::uint64_t candidates) {
  const std::uint32_t width = kFixed != 0 ? kFixed : n;
  alignas(16) static constexpr std::int64_t kKeep[4][2] = {{0, 0}, {-1, 0}, {0, -1}, {-1, -1}};
  const __m128i never = _mm_set1_epi64x(static_cast<std::int64_t>(kNever));
  const __m128i two = _mm_set1_epi64x(2);
  __m128i low = never, low_index = _mm_setzero_si128(), index = _mm_set_epi64x(1, 0);
  for (std::uint32_t i = 0; i < width; i += 2) {
    const __m128i keep = _mm_load_si128(reinterpret_cast<const __m128i*>(kKeep[candidates >> i & 3u]));
    const __m128i v = _mm_blendv_epi8(never, load_pair(ready + i), keep);
    const __m128i smaller = _mm_cmpgt_epi64(low, v);
    low = _mm_blendv_epi8(low, v, smaller);
    low_index = _mm_blendv_epi8(low_index, index, smaller);
    index = _mm_add_epi64(index, two);
  }
  const std::int64_t r0 = _mm_cvtsi128_si64(low), r1 = _mm_extract_epi64(low, 1);
  const std::int64_t i0 = _mm_cvtsi128_si64(low_index), i1 = _mm_extract_epi64(low_index, 1);
  const bool second = r1 < r0 || (r1 == r0 && i1 < i0);
  const sim::Cycle best = static_cast<sim::Cycle>(second ? r1 : r0);
  if (best == kNever) return {n, kNever};
  return {static_cast<std::uint32_t>(second ? i1 : i0), best};
}
#endif

}  // namespace scan_detail

// Bit i set when ready[i] <= now.
inline std::uint64_t ready_by(const sim::Cycle* ready, std::uint32_t n, sim::Cycle now) {
  std::uint64_t late = 0;
#if defined(__SSE4_2__)
  late = n == 16 ? scan_detail::late_mask<16>(ready, n, now) : scan_detail::late_mask<0>(ready, n, now);
#else
  for (std::uint32_t i = 0; i < n; ++i) late |= std::uint64_t(ready[i] > now) << i;
#endif
  const std::uint64_t all = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  return ~late & all;
}

// Among the warps set in `candidates`, the one whose ready cycle comes first (the lowest index
// among equals).
inline Earliest earliest(const sim::Cycle* ready, std::uint32_t n, std::uint64_t candidates) {
  if (candidates == 0) return {n, kNever};
#if defined(__SSE4_2__)
  return n == 16 ? scan_detail::earliest<16>(ready, n, candidates) : scan_detail::earliest<0>(ready, n, candidates);
#else
  Earliest e{n, kNever};
  for (std::uint64_t c = candidates; c != 0; c &= c - 1) {
    const std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctzll(c));
    if (ready[i] < e.ready) e = {i, ready[i]};
  }
  return e;
#endif
}

}  // namespace warpsim::models
