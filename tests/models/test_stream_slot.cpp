// A resident warp keeps its stream inside its own host memory when it fits (stream_slot.hpp):
// every kernel-library stream must fit, or the SM's prefetch of the warp no longer brings it
// along (a speed regression nothing else would catch), and a stream must run the same
// instructions after the move as before. A stream too large for the slot stays on the heap.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "models/core/stream_slot.hpp"
#include "tests/traces/small_kernels.hpp"
#include "traces/kernels/library.hpp"

namespace {

using warpsim::models::StreamSlot;
using warpsim::traces::Instruction;
using warpsim::traces::WarpStream;

// What the timing model reads of an instruction, addresses included for memory instructions.
std::vector<std::uint64_t> drain(WarpStream& stream) {
  std::vector<std::uint64_t> out;
  Instruction in;
  while (stream.next(in)) {
    out.insert(out.end(), {in.pc, in.active_mask, static_cast<std::uint64_t>(in.unit), in.dst[0], in.src[0]});
    if (in.is_memory())
      for (int lane = 0; lane < warpsim::traces::kWarpSize; ++lane)
        if (in.active_mask >> lane & 1u) out.push_back(in.address(lane));
  }
  return out;
}

// A stream that counts its live objects, with `Extra` bytes of state: 512 do not fit the slot.
template <std::size_t Extra>
class CountedStream final : public WarpStream {
 public:
  CountedStream(int& alive, int instructions) : alive_(alive), left_(instructions) { ++alive_; }
  ~CountedStream() override { --alive_; }
  bool next(Instruction& out) override {
    if (left_ == 0) return false;
    out = Instruction{};
    out.pc = static_cast<std::uint32_t>(--left_);
    return true;
  }
  WarpStream* move_into(void* storage, std::size_t bytes) override {
    if (sizeof(CountedStream) > bytes) return nullptr;
    return ::new (storage) CountedStream(alive_, left_);
  }

 private:
  int& alive_;
  int left_;
  char history_[Extra] = {};
};

}  // namespace

TEST_CASE("every library kernel's warp stream lives inside its warp and runs the same instructions there",
          "[models][core]") {
  for (const auto& def : warpsim::traces::kernels::library()) {
    for (int sm : {20, 35, 90}) {
      INFO(def.name << " sm_" << sm);
      std::vector<std::string> small = warpsim::test::small_kernel_params(def.name);
      if (def.name == "emptyKernel") small = {"block=1024"};  // thread 1023 stores: an address
      auto kernel = warpsim::traces::kernels::make_kernel(def.name, small, {sm});
      auto moved = kernel.source->open_block(0);
      auto kept = kernel.source->open_block(0);
      REQUIRE(moved.size() == kept.size());
      for (std::size_t w = 0; w < moved.size(); ++w) {
        StreamSlot slot;
        slot.hold(std::move(moved[w]));
        CHECK(slot.is_inline());
        CHECK(drain(*slot.get()) == drain(*kept[w]));
      }
    }
  }
}

TEMPLATE_TEST_CASE("a stream too large for the slot stays on the heap; either way the slot destroys it",
                   "[models][core]", CountedStream<8>, CountedStream<512>) {
  const bool fits = sizeof(TestType) <= StreamSlot::kInlineBytes;
  int alive = 0;
  {
    StreamSlot slot;
    slot.hold(std::make_unique<TestType>(alive, 3));  // moved in: the original is gone
    CHECK(slot.is_inline() == fits);
    CHECK(alive == 1);
    std::vector<std::uint32_t> pcs;
    Instruction in;
    while (slot->next(in)) pcs.push_back(in.pc);
    CHECK(pcs == std::vector<std::uint32_t>{2, 1, 0});
    slot.hold(nullptr);
    CHECK(slot.get() == nullptr);
    CHECK(alive == 0);
    slot.hold(std::make_unique<TestType>(alive, 1));
  }
  CHECK(alive == 0);  // the destructor released the second one
}
