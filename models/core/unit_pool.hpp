#pragma once
// Issue bandwidth of one execution-unit class (S2.5): `lanes` lane-slots arrive per cycle and a
// warp instruction takes 32 of them, so 192 FP32 lanes issue 6 warp instructions per cycle and
// 16 SFU lanes one every other cycle. A memory instruction that needs N accesses takes N issue
// slots of the LD/ST unit (S3.1 replays) and may drive the credit negative, blocking the unit
// for the following cycles. Credits refill lazily, so a sleeping SM costs nothing.
#include <algorithm>
#include <cstdint>

#include "sim/time.hpp"

namespace warpsim::models {

class UnitPool {
 public:
  static constexpr std::int64_t kWarpSlots = 32;

  void configure(std::uint32_t lanes) {
    lanes_ = lanes;
    credits_ = static_cast<std::int32_t>(cap());
    last_ = 0;
  }

  bool can_issue(sim::Cycle now) {
    refill(now);
    return credits_ >= kWarpSlots;
  }
  // Takes `passes` warp-instruction slots (1 + replays, S3.1).
  void consume(std::uint32_t passes) {
    credits_ = static_cast<std::int32_t>(credits_ - kWarpSlots * static_cast<std::int64_t>(passes));
  }
  // First cycle at which can_issue will be true again.
  sim::Cycle next_free(sim::Cycle now) {
    refill(now);
    if (credits_ >= kWarpSlots) return now;
    return now + static_cast<sim::Cycle>((kWarpSlots - credits_ + lanes_ - 1) / lanes_);
  }

 private:
  // A pool holds at most one cycle's lanes, and never less than one warp instruction.
  std::int64_t cap() const { return std::max<std::int64_t>(lanes_, kWarpSlots); }
  void refill(sim::Cycle now) {
    if (now <= last_) return;
    std::int64_t gained = static_cast<std::int64_t>(std::min<sim::Cycle>(now - last_, 1u << 20)) * lanes_;
    credits_ = static_cast<std::int32_t>(std::min(cap(), credits_ + gained));
    last_ = now;
  }

  // 16 bytes: an SM with a pool group per scheduler (Hopper) keeps its 28 pools in seven host
  // cache lines, which Sm::prefetch loads at every tick. Credits stay within
  // [cap - 32 x (1 + replays), cap], far inside 32 bits.
  std::uint32_t lanes_ = kWarpSlots;
  std::int32_t credits_ = kWarpSlots;
  sim::Cycle last_ = 0;
};

}  // namespace warpsim::models
