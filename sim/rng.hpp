#pragma once
// Per-component random numbers: each component derives its own stream from (global seed,
// component path), so adding a component or changing thread count never shifts another's draws.
#include <cstdint>
#include <string_view>

namespace warpsim::sim {

// SplitMix64 step: a good 64-bit mixer, used for seeding and for stateless hashing.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr std::uint64_t hash_path(std::string_view path) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (char c : path) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

// xoshiro256** (Blackman & Vigna): fast, small state, statistically strong.
class Rng {
 public:
  Rng(std::uint64_t global_seed, std::string_view component_path) {
    std::uint64_t s = mix64(global_seed ^ mix64(hash_path(component_path)));
    for (auto& word : state_) word = s = mix64(s);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [lo, hi].
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + next() % (hi - lo + 1); }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

}  // namespace warpsim::sim
