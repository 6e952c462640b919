// transposeNaive and transposeShared<PAD> (kernels.cu): 32x32 tiles, blocks of 32x8 threads,
// each thread 4 rows j = 0, 8, 16, 24. x = blockIdx.x*32 + threadIdx.x, y = blockIdx.y*32 +
// threadIdx.y. The block shape is fixed by the kernel's TILE/ROWS constants, so `block` and
// `grid` are not parameters: grid = (width/32, width/32). Warps form by linear thread index
// (S1.2): warp w of a block is row threadIdx.y = w.
// Naive ordinals: per j, load in[(y+j)*w + x], store out[x*w + y + j].
// Shared ordinals: 0-3 load in[(y+j)*w + x]; 4-7 STS tile[ty+j][tx]; (barrier) 8-11 LDS
// tile[tx][ty+j]; 12-15 store out[(y'+j)*w + x'], x' = blockIdx.y*32 + tx, y' = blockIdx.x*32
// + ty. Shared addresses are byte offsets in the block's tile (row pitch 32+PAD floats): only
// offsets matter for bank conflicts (S3.10); the sm_90 listing adds its 1 KB reserved window
// base and the CTA id, which we leave out.
// Buffers: in, out (width^2 floats each, in that order, as main()); the window starts at in.
#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

constexpr int kTile = 32, kRows = 8;

struct TransposeParams {
  std::uint64_t in = 0, out = 0;
  std::int32_t width = 0;
  std::int32_t pitch = kTile;  // tile row pitch in floats: 32 + PAD
  bool shared = false;
};

class TransposeLogic : public LogicDefaults {
 public:
  using Params = TransposeParams;
  TransposeLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    const std::int64_t w = p_->width;
    for_each_lane(mask, [&](int lane) {
      std::int64_t tx = w_.tid_x(lane), ty = w_.tid_y(lane);
      std::int64_t x = std::int64_t(w_.block_idx.x) * kTile + tx, y = std::int64_t(w_.block_idx.y) * kTile + ty;
      if (!p_->shared) {
        std::int64_t j = (mem / 2) * kRows;
        addr[lane] = mem % 2 == 0 ? p_->in + 4 * std::uint64_t((y + j) * w + x) : p_->out + 4 * std::uint64_t(x * w + y + j);
        return;
      }
      std::int64_t j = (mem % 4) * kRows;
      switch (mem / 4) {
        case 0: addr[lane] = p_->in + 4 * std::uint64_t((y + j) * w + x); break;
        case 1: addr[lane] = 4 * std::uint64_t((ty + j) * p_->pitch + tx); break;
        case 2: addr[lane] = 4 * std::uint64_t(tx * p_->pitch + ty + j); break;
        default: {
          std::int64_t x2 = std::int64_t(w_.block_idx.y) * kTile + tx, y2 = std::int64_t(w_.block_idx.x) * kTile + ty;
          addr[lane] = p_->out + 4 * std::uint64_t((y2 + j) * w + x2);
        }
      }
    });
  }

 private:
  const Params* p_;
  WarpPlace w_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args, bool shared) {
  TransposeParams p;
  p.shared = shared;
  std::int64_t width = args.integer("width");
  if (width % kTile != 0) args.reject("width", "must be a multiple of the 32-element tile, got " + std::to_string(width));
  p.width = static_cast<std::int32_t>(width);
  DeviceHeap heap;
  p.in = heap.allocate(4ull * width * width);
  p.out = heap.allocate(4ull * width * width);
  KernelInfo info;
  info.name = shared ? "transposeShared" : "transposeNaive";
  info.grid = Dim3{static_cast<std::uint32_t>(width / kTile), static_cast<std::uint32_t>(width / kTile), 1};
  info.block = Dim3{kTile, kRows, 1};
  const char* mangled = "_Z14transposeNaivePfPKfi";
  if (shared) {
    int pad = static_cast<int>(args.integer("pad"));
    p.pitch = kTile + pad;
    info.shared_bytes_per_block = static_cast<std::uint32_t>(4 * kTile * p.pitch);
    mangled = pad ? "_Z15transposeSharedILi1EEvPfPKfi" : "_Z15transposeSharedILi0EEvPfPKfi";
  }
  apply_l2_policy(args, p.in, info);
  return std::make_unique<LibraryKernel<TransposeLogic>>(std::move(info), sass_program(args.isa(), mangled), p);
}

sim::ParamSpec width_param() {
  // 46336^2 floats is the largest square whose element index fits the kernels' int arithmetic.
  return int_param("width", 2048, "elements", "matrix width = height; a multiple of 32", 32, 46336);
}

}  // namespace

KernelDef transpose_naive_def() {
  return {"transposeNaive", "out = in^T straight from global memory: coalesced reads, strided writes",
          with_l2_policy({width_param()}), [](KernelArgs& a) { return build(a, false); }};
}

KernelDef transpose_shared_def() {
  return {"transposeShared", "transpose through a 32x(32+pad) shared tile; pad=1 removes bank conflicts (S3.10)",
          with_l2_policy({width_param(), int_param("pad", 0, "floats", "tile row padding: 0 or 1", 0, 1)}),
          [](KernelArgs& a) { return build(a, true); }};
}

}  // namespace warpsim::traces::kernels
