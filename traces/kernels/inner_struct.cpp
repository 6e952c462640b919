// testInnerStruct (AoS) and testInnerArray (SoA), kernels.cu: i = blockIdx.x * blockDim.x +
// threadIdx.x; if (i < n) add 10 to x and 20 to y. AoS touches only x then only y of 8-byte
// structs: 50% efficiency per access (S3.8); SoA reads two dense float arrays.
// Memory ordinals, AoS: 0 = data[i].x, 1 = data[i].y, 2 = result[i].x, 3 = result[i].y.
// SoA (sm_90 order: the x store is issued before the y load): 0 = dx[i], 1 = rx[i] store,
// 2 = dy[i], 3 = ry[i] store.
// Buffers as main(): AoS d, r (n structs each); SoA x, y, rx, ry (n floats each) allocated after
// them, so both kernels see the same addresses as on the GPU. The window starts at d / x.
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

struct InnerParams {
  std::uint64_t base[4] = {0, 0, 0, 0};  // per memory ordinal
  std::uint32_t stride = 4;               // bytes between elements of consecutive threads
  std::uint32_t n = 0;
};

class InnerLogic : public LogicDefaults {
 public:
  using Params = InnerParams;
  InnerLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t live) const {
    std::uint32_t leaving = 0;
    for_each_lane(live, [&](int lane) {
      if (w_.global_x(lane) >= p_->n) leaving |= 1u << lane;
    });
    return leaving;
  }
  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    for_each_lane(mask, [&](int lane) { addr[lane] = p_->base[mem] + std::uint64_t(p_->stride) * w_.global_x(lane); });
  }

 private:
  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args, bool aos) {
  InnerParams p;
  p.n = static_cast<std::uint32_t>(args.integer("n"));
  DeviceHeap heap;
  std::uint64_t d = heap.allocate(8ull * p.n), r = heap.allocate(8ull * p.n);
  std::uint64_t x = heap.allocate(4ull * p.n), y = heap.allocate(4ull * p.n);
  std::uint64_t rx = heap.allocate(4ull * p.n), ry = heap.allocate(4ull * p.n);
  if (aos) {
    p.stride = 8;
    p.base[0] = d, p.base[1] = d + 4, p.base[2] = r, p.base[3] = r + 4;
  } else {
    p.base[0] = x, p.base[1] = rx, p.base[2] = y, p.base[3] = ry;
  }
  const char* name = aos ? "testInnerStruct" : "testInnerArray";
  KernelInfo info = launch_1d(args, name, p.n);
  apply_l2_policy(args, aos ? d : x, info);
  const char* mangled = aos ? "_Z15testInnerStructPK11innerStructPS_i" : "_Z14testInnerArrayPKfS0_PfS1_i";
  return std::make_unique<LibraryKernel<InnerLogic>>(std::move(info), sass_program(args.isa(), mangled), p);
}

}  // namespace

KernelDef test_inner_struct_def() {
  return {"testInnerStruct", "array of structs {float x, y}: x += 10, y += 20 (AoS, 50% efficiency, S3.8)",
          with_l2_policy({n_param(), block_param(128), grid_param("ceil(n / block)")}),
          [](KernelArgs& a) { return build(a, true); }};
}

KernelDef test_inner_array_def() {
  return {"testInnerArray", "struct of arrays: rx = x + 10, ry = y + 20 (SoA, 100% efficiency, S3.8)",
          with_l2_policy({n_param(), block_param(128), grid_param("ceil(n / block)")}),
          [](KernelArgs& a) { return build(a, false); }};
}

}  // namespace warpsim::traces::kernels
