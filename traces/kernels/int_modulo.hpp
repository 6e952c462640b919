#pragma once
// Signed 32-bit `%` as ptxas expands it (there is no integer divide instruction): a reciprocal
// estimate of |d| from I2F.RP + MUFU.RCP, refined once with IMAD.HI, a quotient by IMAD.HI,
// then up to two guarded corrections `@!P r -= |d|` while r >= |d|. Which lanes take each
// correction is what the SASS's predicated instructions need; we reproduce the integer steps
// exactly and take MUFU.RCP as the correctly rounded 1/x (the hardware is within 1 ulp, so a
// lane's correction count can differ in rare cases; it never changes the instruction count).
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstdlib>

namespace warpsim::traces::kernels {

class IntModulo {
 public:
  explicit IntModulo(std::int32_t divisor) : d_(static_cast<std::uint32_t>(std::abs(static_cast<std::int64_t>(divisor)))) {
    if (d_ == 0) return;
    // I2F.RP: the float at or above d; the RCP; + 0x0ffffffe on the bits nudges the estimate down.
    float f = static_cast<float>(d_);
    if (static_cast<std::uint32_t>(f) < d_) f = std::nextafter(f, 2 * f);
    float rcp = 1.0f / f;
    std::uint32_t bits = std::bit_cast<std::uint32_t>(rcp) + 0x0ffffffeu;
    std::uint32_t q0 = static_cast<std::uint32_t>(std::bit_cast<float>(bits));
    std::uint32_t t = (0u - q0) * d_;
    inverse_ = q0 + static_cast<std::uint32_t>((std::uint64_t(q0) * t) >> 32);
  }

  // Corrections taken for dividend x: 0, 1 or 2. Bit 0 = first correction, bit 1 = second.
  unsigned corrections(std::int32_t x) const {
    if (d_ == 0) return 0;
    std::uint32_t ax = static_cast<std::uint32_t>(std::abs(static_cast<std::int64_t>(x)));
    std::uint32_t q = static_cast<std::uint32_t>((std::uint64_t(inverse_) * ax) >> 32);
    std::uint32_t r = ax - q * d_;
    unsigned taken = 0;
    if (r >= d_) r -= d_, taken |= 1;
    if (r >= d_) taken |= 2;
    return taken;
  }

 private:
  std::uint32_t d_;
  std::uint32_t inverse_ = 0;
};

}  // namespace warpsim::traces::kernels
