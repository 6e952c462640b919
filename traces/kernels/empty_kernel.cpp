// emptyKernel (kernels.cu's dispatch case): if (threadIdx.x == 1023) *sink = 1. Every warp
// issues its few instructions and leaves at `@P0 EXIT`; only thread 1023 (a 1024-thread
// block's last lane) goes on to the store: block dispatch cost with almost no work.
// Memory ordinal 0 = the store to sink. Buffer: sink (4 bytes); the window starts at sink.
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

struct EmptyParams {
  std::uint64_t sink = 0;
};

class EmptyLogic : public LogicDefaults {
 public:
  using Params = EmptyParams;
  EmptyLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t live) const {
    std::uint32_t leaving = 0;
    for_each_lane(live, [&](int lane) {
      if (w_.tid_x(lane) != 1023) leaving |= 1u << lane;
    });
    return leaving;
  }
  void addresses(std::uint16_t, std::uint32_t mask, std::uint64_t* addr) const {
    for_each_lane(mask, [&](int lane) { addr[lane] = p_->sink; });
  }

 private:
  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  EmptyParams p;
  DeviceHeap heap;
  p.sink = heap.allocate(4);
  KernelInfo info = launch_1d(args, "emptyKernel", 0, 1, false);
  apply_l2_policy(args, p.sink, info);
  return std::make_unique<LibraryKernel<EmptyLogic>>(std::move(info), sass_program(args.isa(), "_Z11emptyKernelPi"), p);
}

}  // namespace

KernelDef empty_kernel_def() {
  return {"emptyKernel", "blocks that do nothing (thread 1023 stores a flag): block dispatch rate",
          with_l2_policy({block_param(256),
                          int_param("grid", 1320, "blocks", "blocks in the grid (dispatch.csv: 132 to 132000)", 1,
                                    2147483647.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
