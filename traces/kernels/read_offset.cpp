// readOffset, readOffsetNC, writeOffset (calibration/kernels.cu; seeds' readSegment and
// writeSegment): i = blockIdx.x * blockDim.x + threadIdx.x, k = i + offset,
// if (k < n) C[i] = A[k] + B[k] (read) or C[k] = A[i] + B[i] (write).
// The three share a listing shape on every ISA: bounds check, guarded EXIT (lanes with k >= n
// leave), load A, load B, add, store C; memory ordinals 0 = A, 1 = B, 2 = C. readOffsetNC's
// loads are __ldcg: LDG.E.STRONG.GPU on sm_90, LD.E.CG on sm_20/35, CacheOp::Global (L2 only).
// Buffers: A, B, C of n floats each, allocated in that order; the L2 window starts at A.
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

struct OffsetParams {
  std::uint64_t a = 0, b = 0, c = 0;
  std::uint32_t n = 0;
  std::uint32_t offset = 0;
  bool offset_on_store = false;  // writeOffset: loads at i, store at k
};

class OffsetLogic : public LogicDefaults {
 public:
  using Params = OffsetParams;
  OffsetLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  // @P0 EXIT, P0 = k >= n (unsigned; k wraps in 32 bits like the kernel's unsigned k).
  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t live) const {
    std::uint32_t leaving = 0;
    for_each_lane(live, [&](int lane) {
      if (w_.global_x(lane) + p_->offset >= p_->n) leaving |= 1u << lane;
    });
    return leaving;
  }

  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    for_each_lane(mask, [&](int lane) { addr[lane] = base(mem) + 4ull * index(mem, lane); });
  }
  std::uint32_t linear_address(std::uint16_t mem, std::uint32_t mask, std::uint64_t& first) const {
    return consecutive_elements(w_, mask, base(mem), [&](int lane) { return index(mem, lane); }, first);
  }

 private:
  std::uint64_t base(std::uint16_t mem) const { return mem == 0 ? p_->a : mem == 1 ? p_->b : p_->c; }
  // The element lane `lane` accesses: i, or k = i + offset (32-bit unsigned, as in the kernel).
  std::uint32_t index(std::uint16_t mem, int lane) const {
    const std::uint32_t i = w_.global_x(lane);
    return (mem == 2) == p_->offset_on_store ? i + p_->offset : i;
  }

  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args, const char* name, const char* mangled, bool on_store) {
  OffsetParams p;
  p.n = static_cast<std::uint32_t>(args.integer("n"));
  p.offset = static_cast<std::uint32_t>(args.integer("offset"));
  p.offset_on_store = on_store;
  DeviceHeap heap;
  p.a = heap.allocate(4ull * p.n);
  p.b = heap.allocate(4ull * p.n);
  p.c = heap.allocate(4ull * p.n);
  KernelInfo info = launch_1d(args, name, p.n);
  apply_l2_policy(args, p.a, info);
  return std::make_unique<LibraryKernel<OffsetLogic>>(std::move(info), sass_program(args.isa(), mangled), p);
}

std::vector<sim::ParamSpec> offset_params() {
  return with_l2_policy({n_param(), block_param(512), grid_param("ceil(n / block)"), offset_param()});
}

}  // namespace

KernelDef read_offset_def() {
  return {"readOffset", "C[i] = A[i+offset] + B[i+offset]: misaligned loads (S3.2, S3.3)", offset_params(),
          [](KernelArgs& a) { return build(a, "readOffset", "_Z10readOffsetPKfS0_Pfii", false); }};
}

KernelDef read_offset_nc_def() {
  return {"readOffsetNC", "readOffset with __ldcg loads that bypass L1 (L2 only, 32-byte sectors, S3.3)",
          offset_params(),
          [](KernelArgs& a) { return build(a, "readOffsetNC", "_Z12readOffsetNCPKfS0_Pfii", false); }};
}

KernelDef write_offset_def() {
  return {"writeOffset", "C[i+offset] = A[i] + B[i]: misaligned stores (S3.4)", offset_params(),
          [](KernelArgs& a) { return build(a, "writeOffset", "_Z11writeOffsetPKfS0_Pfii", true); }};
}

}  // namespace warpsim::traces::kernels
