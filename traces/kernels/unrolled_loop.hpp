#pragma once
// The branch skeleton ptxas (sm_90, -O3) gives a counted loop `for (i = 0; i < count; ++i)`
// whose count is a kernel argument, as in fmaChain and chase: the body unrolled 4x with a
// 1x remainder loop for count % 4, and the 4x loop unrolled again into a 16-per-pass loop with
// an 8 and a 4 tail. Ten guarded branches, hooks 0-9 in listing order; this replays the
// counter registers they test (the R2/R3 of fmaChain, R0/R4 of chase), so the walk takes
// exactly the listing's path for every count.
#include <cstdint>

namespace warpsim::traces::kernels {

class UnrolledLoop {
 public:
  explicit UnrolledLoop(std::int32_t count) : count_(count) {}

  bool taken(std::uint16_t branch) {
    switch (branch) {
      case 0: return count_ < 1;                                        // @!P0 BRA epilogue
      case 1: rest_ = count_ & 3; return std::uint32_t(count_ - 1) < 3;  // @!P0 BRA remainder
      case 2: main_ = count_ - rest_; return !(main_ > 0);              // @!P0 BRA 4x loop
      case 3: p0_ = true; if (main_ > 12) p0_ = false; return !(main_ > 12);  // @!P1 BRA past 16x loop
      case 4: main_ -= 16; return main_ > 12;                           // @P1 BRA 16x loop
      case 5:                                                           // @!P1 BRA past 8x block
        if (main_ > 4) { p0_ = false; main_ -= 8; return false; }
        return true;
      case 6: return !(main_ != 0 || p0_);                              // @!P0 BRA remainder
      case 7: main_ -= 4; return main_ != 0;                            // @P0 BRA 4x loop
      case 8: return rest_ == 0;                                        // @!P0 BRA epilogue
      case 9: rest_ -= 1; return rest_ != 0;                            // @P0 BRA remainder loop
      default: return false;
    }
  }

 private:
  std::int32_t count_;
  std::int32_t rest_ = 0;
  std::int32_t main_ = 0;
  bool p0_ = false;
};

}  // namespace warpsim::traces::kernels
