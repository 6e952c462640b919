// persistLoop (kernels.cu's persist2 case, two of them run in two streams sharing the
// set-aside, S4.4): acc += persistent[(tid + it * 7919) % freqSize] for it < iters; the
// result is stored only if acc == 0x7fffffff. main() memsets the region to bytes of 1, so acc
// = iters x 0x01010101 and the store never happens for the launched sizes; we compute it.
// sm_90 listing: a 4x unrolled loop (two guarded branches), a remainder loop (two more), and
// the signed `%` expanded inline (int_modulo.hpp) with guarded corrections.
// Hooks (sm_90 order, the sm_20/35 listings follow it): exits 0 = iters < 1, 1 = acc !=
// 0x7fffffff; branches 0 = skip the 4x loop (iters < 4), 1 = 4x loop back edge, 2 = skip the
// remainder, 3 = remainder back edge; guarded instructions, per 4x pass: 0 1st correction of
// it+0, 1 2nd of it+0, 2 1st of it+1, 3 1st of it+2, 4 1st of it+3, 5 negate it+0, 6 2nd of
// it+1, 7 2nd of it+2, 8 negate it+1, 9 2nd of it+3, 10 negate it+3, 11 negate it+2; remainder:
// 12 1st, 13 2nd, 14 negate. Memory ordinals: 4x pass loads it+0, it+1, it+3, it+2; 4 the
// remainder load; 5 the store to out.
// Buffers as main()'s persist2: p1, p2 (persist_bytes each), out (4 B); this launch reads p1,
// where the window starts. Defaults: main()'s H100 values (set-aside 31.25 MB, 66 x 8 blocks of
// 256, 256 iterations).
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/int_modulo.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

constexpr std::int32_t kStep = 7919;

struct LoopParams {
  std::uint64_t persistent = 0, out = 0;
  std::int32_t freq = 1, iters = 0;
  IntModulo mod{1};
};

class LoopLogic : public LogicDefaults {
 public:
  // The corrections of tid % size that lanes take depend on tid: blocks differ in active lanes.
  static constexpr bool kBlocksAlike = false;
  using Params = LoopParams;
  LoopLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::uint32_t exit_lanes(std::uint16_t hook, std::uint32_t live) const {
    if (hook == 0) return p_->iters < 1 ? live : 0;
    std::int32_t acc = static_cast<std::int32_t>(std::uint32_t(p_->iters) * 0x01010101u);
    return acc != 0x7fffffff ? live : 0;
  }

  bool branch_taken(std::uint16_t hook) {
    switch (hook) {
      case 0: rest_ = p_->iters & 3; return std::uint32_t(p_->iters - 1) < 3;
      case 1: done_ += 4; return done_ != p_->iters - rest_;
      case 2: return rest_ == 0;
      default: ++done_; --rest_; return rest_ != 0;
    }
  }

  std::uint32_t predicated_lanes(std::uint16_t hook, std::uint32_t live) const {
    static constexpr std::int8_t kIt[15] = {0, 0, 1, 2, 3, 0, 1, 2, 1, 3, 3, 2, 0, 0, 0};
    static constexpr std::uint8_t kBit[15] = {1, 2, 1, 1, 1, 0, 2, 2, 0, 2, 0, 0, 1, 2, 0};
    if (hook >= 15 || kBit[hook] == 0) return 0;  // negations: the index is never negative
    // In the 4x pass `done_` is the pass's first it (the back edge adds 4 after the body).
    std::int32_t it = done_ + (hook < 12 ? kIt[hook] : 0);
    std::uint32_t lanes = 0;
    for_each_lane(live, [&](int lane) {
      if (p_->mod.corrections(index(lane, it)) & kBit[hook]) lanes |= 1u << lane;
    });
    return lanes;
  }

  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    static constexpr std::int8_t kIt[5] = {0, 1, 3, 2, 0};
    if (mem >= 5) {
      for_each_lane(mask, [&](int lane) { addr[lane] = p_->out; });
      return;
    }
    std::int32_t it = done_ + kIt[mem];
    for_each_lane(mask, [&](int lane) {
      addr[lane] = p_->persistent + 4ull * static_cast<std::uint32_t>(index(lane, it) % p_->freq);
    });
  }

 private:
  std::int32_t index(int lane, std::int32_t it) const {
    return static_cast<std::int32_t>(w_.global_x(lane) + std::uint32_t(it) * std::uint32_t(kStep));
  }

  const Params* p_;
  WarpPlace w_;
  std::int32_t done_ = 0;  // iterations finished before the current pass
  std::int32_t rest_ = 0;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  std::int64_t bytes = args.integer("persist_bytes");
  if (bytes % 4) args.reject("persist_bytes", "must be a multiple of 4 (an int array)");
  LoopParams p;
  p.freq = static_cast<std::int32_t>(bytes / 4);
  p.iters = static_cast<std::int32_t>(args.integer("iters"));
  p.mod = IntModulo(p.freq);
  DeviceHeap heap;
  p.persistent = heap.allocate(static_cast<std::uint64_t>(bytes));
  heap.allocate(static_cast<std::uint64_t>(bytes));  // p2, the other stream's region
  p.out = heap.allocate(4);
  KernelInfo info = launch_1d(args, "persistLoop", 0, 1, false);
  apply_l2_policy(args, p.persistent, info, /*sets_set_aside=*/true);
  return std::make_unique<LibraryKernel<LoopLogic>>(std::move(info), sass_program(args.isa(), "_Z11persistLoopPiiiS_"), p);
}

}  // namespace

KernelDef persist_loop_def() {
  return {"persistLoop", "iters strided re-reads of a persistent region: set-aside sharing between streams (S4.4)",
          with_l2_policy({block_param(256),
                          int_param("grid", 528, "blocks", "blocks in the grid (main(): 66 x 8)", 1, 2147483647.0),
                          int_param("persist_bytes", 32768000, "bytes",
                                    "size of the re-read region (main(): the set-aside, 31.25 MB on an H100)", 4,
                                    2147483644.0),
                          int_param("iters", 256, "iterations", "loads per thread", 0, 2147483647.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
