#pragma once
// glibc's rand() (the TYPE_3 additive feedback generator behind srand/rand), so the library can
// rebuild the exact pointer-chase permutation kernels.cu's host code makes with srand(7).
#include <array>
#include <cstdint>

namespace warpsim::traces::kernels {

class GlibcRand {
 public:
  explicit GlibcRand(std::uint32_t seed) {
    std::array<std::int32_t, 34> r{};
    r[0] = static_cast<std::int32_t>(seed == 0 ? 1 : seed);
    for (int i = 1; i < 31; ++i) {
      std::int64_t v = (16807ll * r[i - 1]) % 2147483647;
      if (v < 0) v += 2147483647;
      r[i] = static_cast<std::int32_t>(v);
    }
    for (int i = 0; i < 31; ++i) state_[i] = static_cast<std::uint32_t>(r[i]);
    front_ = 3;  // glibc: fptr = &state[SEP_3], rptr = &state[0]
    rear_ = 0;
    for (int i = 0; i < 310; ++i) next();
  }

  std::int32_t next() {
    state_[front_] += state_[rear_];
    std::int32_t result = static_cast<std::int32_t>(state_[front_] >> 1);
    front_ = (front_ + 1) % 31;
    rear_ = (rear_ + 1) % 31;
    return result;
  }

 private:
  std::array<std::uint32_t, 31> state_{};
  int front_ = 0, rear_ = 0;
};

}  // namespace warpsim::traces::kernels
