#pragma once
// The two scans a cache lookup makes over the ways of one set: which way holds a tag, and which
// way's key (LRU stamp under eviction class) is the lowest. An L2 miss runs both over 16 ways,
// so they are written as SSE4.2 compares of 64-bit words where the build allows it (x86-64-v2),
// with plain loops that give the same answers otherwise.
#include <cstdint>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace warpsim::models::memory {

// The first w < ways with words[w] == value, or `ways` when there is none.
inline std::uint32_t first_equal(const std::uint64_t* words, std::uint32_t ways, std::uint64_t value) {
  std::uint32_t w = 0;
#if defined(__SSE4_2__)
  // Eight words per step, one test of the four compares together: a miss in a 16-way set (the
  // L2's common case) is two steps.
  const __m128i v = _mm_set1_epi64x(static_cast<long long>(value));
  auto equal = [&](std::uint32_t at) {
    return _mm_cmpeq_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(words + at)), v);
  };
  auto bits = [](__m128i e) { return static_cast<unsigned>(_mm_movemask_pd(_mm_castsi128_pd(e))); };
  for (; w + 8 <= ways; w += 8) {
    const __m128i a = equal(w), b = equal(w + 2), c = equal(w + 4), d = equal(w + 6);
    const __m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
    if (_mm_testz_si128(any, any)) continue;
    return w + static_cast<std::uint32_t>(__builtin_ctz(bits(a) | bits(b) << 2 | bits(c) << 4 | bits(d) << 6));
  }
#endif
  for (; w < ways; ++w)
    if (words[w] == value) return w;
  return ways;
}

// The first way whose key, words[w] & key_mask, is the lowest (ways >= 1).
inline std::uint32_t lowest_way(const std::uint64_t* words, std::uint32_t ways, std::uint64_t key_mask) {
  std::uint32_t best = 0;
  std::uint64_t best_key = words[0] & key_mask;
  for (std::uint32_t w = 1; w < ways; ++w) {
    const std::uint64_t key = words[w] & key_mask;
    if (key < best_key) best = w, best_key = key;
  }
  return best;
}

}  // namespace warpsim::models::memory
