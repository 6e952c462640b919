// readOffsetUnroll<U> (U = 1, 2, 4, 8; kernels.cu's unroll cases): i = blockIdx.x * blockDim.x
// * U + threadIdx.x, k = i + offset; if (k + (U-1) * blockDim.x < n) for each u:
// C[i + u*blockDim.x] = A[k + u*blockDim.x] + B[k + u*blockDim.x]. Unrolling puts U independent
// load pairs in flight (S3.9). The whole warp's lanes leave at the guarded EXIT when the last
// unrolled element of a lane is past n (the kernel's all-or-nothing bound, so tails are skipped
// exactly as on the GPU).
// Memory ordinals: per u, two loads then the store. On sm_90 ptxas orders the two loads of a
// pair as B, A except the first pair of U=1 and U=2, the third of U=4 and the seventh of U=8
// (A, B): read from kernels.sass, see kAccessesSm90. The sm_20/35 listings load A then B.
// Buffers: A, B, C of n floats each; the L2 window starts at A.
#include <array>

#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

enum class Array : std::uint8_t { A, B, C };
struct Access {
  Array array;
  std::uint8_t u;
};
using AccessList = std::array<Access, 24>;  // 3 per unrolled element, U <= 8

constexpr AccessList accesses(std::array<bool, 8> a_first) {
  AccessList list{};
  for (int u = 0; u < 8; ++u) {
    auto uu = static_cast<std::uint8_t>(u);
    list[3 * u] = {a_first[u] ? Array::A : Array::B, uu};
    list[3 * u + 1] = {a_first[u] ? Array::B : Array::A, uu};
    list[3 * u + 2] = {Array::C, uu};
  }
  return list;
}
// Read from kernels.sass (LDC.64 R2 = A at c[0x210], R4 = B at c[0x218]).
constexpr AccessList kUnroll1Sm90 = accesses({true});
constexpr AccessList kUnroll2Sm90 = accesses({true, false});
constexpr AccessList kUnroll4Sm90 = accesses({false, false, true, false});
constexpr AccessList kUnroll8Sm90 = accesses({false, false, false, false, false, false, true, false});
constexpr AccessList kAFirst = accesses({true, true, true, true, true, true, true, true});

struct UnrollParams {
  std::uint64_t base[3] = {0, 0, 0};  // A, B, C
  std::uint32_t n = 0, offset = 0, unroll = 1;
  const AccessList* order = &kAFirst;
};

class UnrollLogic : public LogicDefaults {
 public:
  using Params = UnrollParams;
  UnrollLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::uint32_t i(int lane) const { return w_.block_idx.x * w_.block_dim.x * p_->unroll + w_.tid_x(lane); }

  // @P0 EXIT, P0 = k + (U-1) * blockDim.x >= n (unsigned 32-bit).
  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t live) const {
    std::uint32_t leaving = 0;
    for_each_lane(live, [&](int lane) {
      if (i(lane) + p_->offset + (p_->unroll - 1) * w_.block_dim.x >= p_->n) leaving |= 1u << lane;
    });
    return leaving;
  }

  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    const std::uint64_t base = this->base(mem);
    for_each_lane(mask, [&](int lane) { addr[lane] = base + 4ull * element(mem, lane); });
  }
  std::uint32_t linear_address(std::uint16_t mem, std::uint32_t mask, std::uint64_t& first) const {
    return consecutive_elements(w_, mask, base(mem), [&](int lane) { return element(mem, lane); }, first);
  }

 private:
  std::uint64_t base(std::uint16_t mem) const { return p_->base[static_cast<int>((*p_->order)[mem].array)]; }
  // The element lane `lane` accesses for access `mem` (32-bit unsigned, as in the kernel).
  std::uint32_t element(std::uint16_t mem, int lane) const {
    const Access& a = (*p_->order)[mem];
    return std::uint32_t(i(lane) + (a.array == Array::C ? 0 : p_->offset) + a.u * w_.block_dim.x);
  }

  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  UnrollParams p;
  p.n = static_cast<std::uint32_t>(args.integer("n"));
  p.offset = static_cast<std::uint32_t>(args.integer("offset"));
  p.unroll = static_cast<std::uint32_t>(std::stoi(args.text("unroll")));
  DeviceHeap heap;
  for (auto& b : p.base) b = heap.allocate(4ull * p.n);
  const char* mangled = "_Z16readOffsetUnrollILi1EEvPKfS1_Pfii";
  const AccessList* sm90 = &kUnroll1Sm90;
  if (p.unroll == 2) mangled = "_Z16readOffsetUnrollILi2EEvPKfS1_Pfii", sm90 = &kUnroll2Sm90;
  if (p.unroll == 4) mangled = "_Z16readOffsetUnrollILi4EEvPKfS1_Pfii", sm90 = &kUnroll4Sm90;
  if (p.unroll == 8) mangled = "_Z16readOffsetUnrollILi8EEvPKfS1_Pfii", sm90 = &kUnroll8Sm90;
  p.order = args.isa().sm_version >= 80 ? sm90 : &kAFirst;
  KernelInfo info = launch_1d(args, "readOffsetUnroll", p.n, p.unroll);
  apply_l2_policy(args, p.base[0], info);
  return std::make_unique<LibraryKernel<UnrollLogic>>(std::move(info), sass_program(args.isa(), mangled), p);
}

}  // namespace

KernelDef read_offset_unroll_def() {
  return {"readOffsetUnroll",
          "readOffset with U elements per thread, blockDim apart: more loads in flight (S3.9)",
          with_l2_policy({n_param(), block_param(512), grid_param("ceil(n / (unroll x block))"), offset_param(),
                          choice_param("unroll", "4", {"1", "2", "4", "8"},
                                       "elements per thread (the SASS has U = 1, 2, 4, 8)")}),
          build};
}

}  // namespace warpsim::traces::kernels
