// fmaChain<ILP> (kernels.cu's latency-hiding case): each thread runs ILP independent chains of
// `iters` dependent FFMAs, then stores their sum to out[blockIdx.x * blockDim.x + threadIdx.x].
// ILP = 1 or 4 (the SASS has those instantiations). The loop follows the listing's branch
// skeleton exactly (unrolled_loop.hpp), so a warp issues the same FFMAs, ISETPs and BRAs as on
// the GPU. Memory ordinal 0 = the store. Buffer: out (64 MB, as main()); the window starts there.
// Defaults: the warpsPerSM = 32 point of main() on an H100: block 1024, grid 132 (one block per
// SM).
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"
#include "traces/kernels/unrolled_loop.hpp"

namespace warpsim::traces::kernels {
namespace {

constexpr std::uint64_t kOutBytes = 1ull << 26;

struct FmaParams {
  std::uint64_t out = 0;
  std::int32_t iters = 0;
};

class FmaLogic : public LogicDefaults {
 public:
  using Params = FmaParams;
  FmaLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w), loop_(p.iters) {}

  bool branch_taken(std::uint16_t hook) { return loop_.taken(hook); }
  void addresses(std::uint16_t, std::uint32_t mask, std::uint64_t* addr) const {
    for_each_lane(mask, [&](int lane) { addr[lane] = p_->out + 4ull * w_.global_x(lane); });
  }

 private:
  const Params* p_;
  WarpPlace w_;
  UnrolledLoop loop_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  FmaParams p;
  p.iters = static_cast<std::int32_t>(args.integer("iters"));
  DeviceHeap heap;
  p.out = heap.allocate(kOutBytes);
  KernelInfo info = launch_1d(args, "fmaChain", 0, 1, false);
  if (std::uint64_t(info.grid.x) * info.block.x * 4 > kOutBytes)
    args.reject("grid", "grid x block threads exceed the 64 MB output buffer of kernels.cu");
  apply_l2_policy(args, p.out, info);
  const char* mangled = args.text("ilp") == "4" ? "_Z8fmaChainILi4EEvPfi" : "_Z8fmaChainILi1EEvPfi";
  return std::make_unique<LibraryKernel<FmaLogic>>(std::move(info), sass_program(args.isa(), mangled), p);
}

}  // namespace

KernelDef fma_chain_def() {
  return {"fmaChain", "ILP chains of `iters` dependent FFMAs per thread: latency hiding vs warps per SM (S2.9)",
          with_l2_policy({block_param(1024),
                          int_param("grid", 132, "blocks", "blocks in the grid (main(): SMs x blocks per SM)", 1,
                                    2147483647.0),
                          choice_param("ilp", "1", {"1", "4"}, "independent FMA chains per thread"),
                          int_param("iters", 4096, "iterations", "dependent FMAs per chain", 0, 2147483647.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
