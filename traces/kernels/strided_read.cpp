// stridedRead (kernels.cu): i = blockIdx.x * blockDim.x + threadIdx.x, k = (u64)i * stride;
// if (k < n) out[i] = in[k]. Each lane of a warp touches its own sector once stride >= 8
// (S3.3). Memory ordinals: 0 = load in[k], 1 = store out[i]. Buffers as in main(): A (in),
// B (unused by this kernel, allocated all the same), C (out), n floats each; the window starts
// at in.
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

struct StrideParams {
  std::uint64_t in = 0, out = 0;
  std::int64_t n = 0, stride = 1;
};

class StrideLogic : public LogicDefaults {
 public:
  using Params = StrideParams;
  StrideLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::uint64_t k(int lane) const {
    return std::uint64_t(w_.global_x(lane)) * static_cast<std::uint64_t>(p_->stride);
  }
  // @P0 EXIT, P0 = k >= n as unsigned 64-bit (ISETP.GE.U32.AND.EX).
  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t live) const {
    std::uint32_t leaving = 0;
    for_each_lane(live, [&](int lane) {
      if (k(lane) >= static_cast<std::uint64_t>(p_->n)) leaving |= 1u << lane;
    });
    return leaving;
  }
  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    for_each_lane(mask, [&](int lane) {
      addr[lane] = mem == 0 ? p_->in + 4 * k(lane) : p_->out + 4ull * w_.global_x(lane);
    });
  }
  // out[i], and in[i * stride] at stride 1: element i of each lane.
  std::uint32_t linear_address(std::uint16_t mem, std::uint32_t mask, std::uint64_t& first) const {
    if (mem == 0 && p_->stride != 1) return 0;
    return consecutive_elements(w_, mask, mem == 0 ? p_->in : p_->out, [&](int lane) { return w_.global_x(lane); },
                                first);
  }

 private:
  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  StrideParams p;
  p.n = args.integer("n");
  p.stride = args.integer("stride");
  DeviceHeap heap;
  p.in = heap.allocate(4ull * p.n);
  heap.allocate(4ull * p.n);  // B of main(), unused here
  p.out = heap.allocate(4ull * p.n);
  std::uint64_t threads = static_cast<std::uint64_t>(p.n / p.stride);  // main(): m = n / stride
  KernelInfo info = launch_1d(args, "stridedRead", threads);
  apply_l2_policy(args, p.in, info);
  return std::make_unique<LibraryKernel<StrideLogic>>(std::move(info),
                                                      sass_program(args.isa(), "_Z11stridedReadPKfPfii"), p);
}

}  // namespace

KernelDef strided_read_def() {
  return {"stridedRead", "out[i] = in[i * stride]: one useful float per 4*stride bytes (S3.3)",
          with_l2_policy({n_param(), block_param(256), grid_param("ceil((n / stride) / block)"),
                          int_param("stride", 1, "elements", "distance between the elements two threads read", 1,
                                    2147483647.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
