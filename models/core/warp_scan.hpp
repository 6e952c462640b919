#pragma once
// The scans a warp scheduler makes over its warps' ready cycles (SPEC S2.1, S2.6): which warps
// are ready now and, in the same pass, which waiting warp becomes ready first (look); and the
// first among any set of warps (earliest). A scheduler owns at most 64 warps (16 on Kepler and
// Hopper), and every cycle that issues runs a look, so they are written as SSE4.1 vector
// compares where the build allows it, four warps per compare (fully unrolled for 16 warps), with
// a plain loop that gives the same answers otherwise.
//
// Ready cycles are held as 32-bit stamps, cycles after a base the SM moves forward now and then
// (ReadyStamps), so that four fit in one vector register. `ready` holds `n` stamps, n a multiple
// of 4; entries past the scheduler's warps hold kNeverStamp. Stamps stay below 2^31, so the
// vector code may compare them as signed numbers.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "sim/time.hpp"

namespace warpsim::models {

inline constexpr sim::Cycle kNever = std::numeric_limits<std::int64_t>::max();

using Stamp = std::uint32_t;
inline constexpr Stamp kNeverStamp = 0x7fffffffu;

// Both fields are 64 bits wide: with 32-bit fields GCC 12 spilled the two halves of a look's
// result with 32-bit stores and read them back as one 64-bit word, which the host cannot forward
// from the stores and waits for (perf: 11% of readOffset's host time on that one load).
struct Earliest {
  std::uint64_t index;  // n when there are no candidates
  std::uint64_t ready;  // a Stamp; kNeverStamp when there are no candidates
};

// What one look finds: bit i of `ready` is set when ready[i] <= now; `waiting` is the first of
// the others (stamp above now, below kNeverStamp), the lowest index among equals.
struct Look {
  std::uint64_t ready;
  Earliest waiting;
};

// Converts between cycles and stamps for one SM. rebase() moves the base up to `now` when the
// stamps of the present approach 2^30; stamps of cycles before the new base become 0, which is
// still "in the past" for every later question. A ready cycle must lie less than 2^31 - 1
// cycles after the base, i.e. more than 2^30 cycles (half a second of GPU time) ahead of the
// present, before a stamp cannot hold it; no preset comes near, and rather than let such a warp
// issue early, of() refuses.
class ReadyStamps {
 public:
  static constexpr sim::Cycle kRebaseAfter = sim::Cycle{1} << 30;

  Stamp of(sim::Cycle cycle) const {
    if (cycle == kNever) return kNeverStamp;
    const sim::Cycle after = cycle > base_ ? cycle - base_ : 0;
    if (after >= kNeverStamp)
      throw std::overflow_error("a warp would wait " + std::to_string(after) +
                                " cycles, beyond the scheduler's 32-bit ready stamps (2^31 - 1)");
    return static_cast<Stamp>(after);
  }
  sim::Cycle cycle(Stamp stamp) const { return stamp == kNeverStamp ? kNever : base_ + stamp; }
  bool needs_rebase(sim::Cycle now) const { return now - base_ >= kRebaseAfter; }
  // Moves the base to `now`, converting every stamp of every array in `held`.
  void rebase(sim::Cycle now, std::initializer_list<std::vector<Stamp>*> held) {
    const sim::Cycle shift = now - base_;
    for (std::vector<Stamp>* stamps : held)
      for (Stamp& s : *stamps)
        if (s != kNeverStamp) s = s > shift ? static_cast<Stamp>(s - shift) : 0;
    base_ = now;
  }

 private:
  sim::Cycle base_ = 0;
};

namespace scan_detail {

#if defined(__SSE4_1__)
inline __m128i load4(const Stamp* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// kFixed != 0: the width is known at compile time and the loops unroll completely.
inline std::uint64_t mask4(__m128i lanes) { return std::uint64_t(_mm_movemask_ps(_mm_castsi128_ps(lanes))); }

// One pass: the late lanes (stamp > now) and their smallest stamp, the ready ones being set to
// all ones (above every stamp, as unsigned) before the minimum; a second pass finds the lowest
// index holding that minimum, which is late by construction.
template <std::uint32_t kFixed>
Look look(const Stamp* ready, std::uint32_t n, Stamp now) {
  const std::uint32_t width = kFixed != 0 ? kFixed : n;
  const __m128i limit = _mm_set1_epi32(static_cast<std::int32_t>(now));
  const __m128i ones = _mm_set1_epi32(-1);
  std::uint64_t late = 0;
  __m128i low = ones;
  for (std::uint32_t i = 0; i < width; i += 4) {
    const __m128i v = load4(ready + i);
    const __m128i is_late = _mm_cmpgt_epi32(v, limit);
    late |= mask4(is_late) << i;
    low = _mm_min_epu32(low, _mm_or_si128(v, _mm_xor_si128(is_late, ones)));
  }
  low = _mm_min_epu32(low, _mm_shuffle_epi32(low, 0x4e));  // lanes 2,3 onto 0,1
  low = _mm_min_epu32(low, _mm_shuffle_epi32(low, 0xb1));  // lane 1 onto 0
  const Stamp best = static_cast<Stamp>(_mm_cvtsi128_si32(low));
  const std::uint64_t all = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  if (best >= kNeverStamp) return {~late & all, {n, kNeverStamp}};
  std::uint64_t at = 0;
  for (std::uint32_t i = 0; i < width; i += 4) at |= mask4(_mm_cmpeq_epi32(load4(ready + i), low)) << i;
  return {~late & all, {static_cast<std::uint32_t>(__builtin_ctzll(at)), best}};
}

// Non-candidates read as kNeverStamp. First pass: the smallest stamp; second: the lowest index
// holding it (a compare for equality per group of four, then the lowest set bit).
template <std::uint32_t kFixed>
Earliest earliest(const Stamp* ready, std::uint32_t n, std::uint64_t candidates) {
  const std::uint32_t width = kFixed != 0 ? kFixed : n;
  alignas(16) static constexpr std::int32_t kKeep[16][4] = {
      {0, 0, 0, 0},  {-1, 0, 0, 0},  {0, -1, 0, 0},  {-1, -1, 0, 0},  {0, 0, -1, 0},  {-1, 0, -1, 0},
      {0, -1, -1, 0}, {-1, -1, -1, 0}, {0, 0, 0, -1}, {-1, 0, 0, -1}, {0, -1, 0, -1}, {-1, -1, 0, -1},
      {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};
  const __m128i never = _mm_set1_epi32(static_cast<std::int32_t>(kNeverStamp));
  auto kept = [&](std::uint32_t i) {
    const __m128i keep = _mm_load_si128(reinterpret_cast<const __m128i*>(kKeep[candidates >> i & 15u]));
    return _mm_blendv_epi8(never, load4(ready + i), keep);
  };
  __m128i low = never;
  for (std::uint32_t i = 0; i < width; i += 4) low = _mm_min_epi32(low, kept(i));
  low = _mm_min_epi32(low, _mm_shuffle_epi32(low, 0x4e));  // lanes 2,3 onto 0,1
  low = _mm_min_epi32(low, _mm_shuffle_epi32(low, 0xb1));  // lane 1 onto 0
  const Stamp best = static_cast<Stamp>(_mm_cvtsi128_si32(low));
  if (best == kNeverStamp) return {n, kNeverStamp};
  std::uint64_t at = 0;
  for (std::uint32_t i = 0; i < width; i += 4)
    at |= std::uint64_t(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(kept(i), low)))) << i;
  return {static_cast<std::uint32_t>(__builtin_ctzll(at)), best};
}
#endif

}  // namespace scan_detail

// The warps ready at `now` and the first of the others (Look).
inline Look look(const Stamp* ready, std::uint32_t n, Stamp now) {
#if defined(__SSE4_1__)
  return n == 16 ? scan_detail::look<16>(ready, n, now) : scan_detail::look<0>(ready, n, now);
#else
  Look l{0, {n, kNeverStamp}};
  for (std::uint32_t i = 0; i < n; ++i) {
    if (ready[i] <= now)
      l.ready |= std::uint64_t{1} << i;
    else if (ready[i] < l.waiting.ready)
      l.waiting = {i, ready[i]};
  }
  return l;
#endif
}

// Among the warps set in `candidates`, the one whose ready stamp comes first (the lowest index
// among equals).
inline Earliest earliest(const Stamp* ready, std::uint32_t n, std::uint64_t candidates) {
  if (candidates == 0) return {n, kNeverStamp};
#if defined(__SSE4_1__)
  return n == 16 ? scan_detail::earliest<16>(ready, n, candidates) : scan_detail::earliest<0>(ready, n, candidates);
#else
  Earliest e{n, kNeverStamp};
  for (std::uint64_t c = candidates; c != 0; c &= c - 1) {
    const std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctzll(c));
    if (ready[i] < e.ready) e = {i, ready[i]};
  }
  return e;
#endif
}

}  // namespace warpsim::models
