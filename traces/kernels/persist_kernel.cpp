// persistKernel (kernels.cu, the CUDA Best Practices Guide's L2 persistence example):
// tid = blockIdx.x * blockDim.x + threadIdx.x; persistent[tid % freqSize] *= 2;
// streaming[tid % dataSize] *= 2. Every thread re-touches the small persistent region and
// streams through the big one: the access-policy window over `persistent` decides which stays
// in L2 (S4). freqSize = persist_bytes / 4, dataSize = data_bytes / 4, grid = dataSize / block
// (main() truncates). Buffers as main(): persistent (64 MB, or persist_bytes if larger), then
// streaming (data_bytes); the window starts at persistent.
// Memory ordinals: 0 load / 1 store persistent[tid % freqSize], 2 load / 3 store
// streaming[tid % dataSize]. Guarded instructions (sm_90 order; the sm_20/35 listings follow
// it): 0, 1 the two corrections of tid % freqSize, 2 the negation for tid < 0, 3 the
// divisor-is-zero case; 4-7 the same for tid % dataSize (int_modulo.hpp).
#include <algorithm>

#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/int_modulo.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/launch_1d.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {
namespace {

struct PersistParams {
  std::uint64_t persistent = 0, streaming = 0;
  std::int32_t freq = 1, data = 1;
  IntModulo freq_mod{1}, data_mod{1};
};

class PersistLogic : public LogicDefaults {
 public:
  // The corrections of tid % size that lanes take depend on tid: blocks differ in active lanes.
  static constexpr bool kBlocksAlike = false;
  using Params = PersistParams;
  PersistLogic(const Params& p, const WarpPlace& w) : p_(&p), w_(w) {}

  std::int32_t tid(int lane) const { return static_cast<std::int32_t>(w_.global_x(lane)); }

  // Hooks 0/1 and 4/5 ask for the first and second correction of the same `%`: both masks come
  // from one pass over the lanes, made when the first is asked.
  std::uint32_t predicated_lanes(std::uint16_t hook, std::uint32_t live) {
    if (hook % 4 >= 2) return 0;  // tid >= 0 and divisors > 0: never taken
    if (hook % 4 == 0) {
      const IntModulo& m = hook < 4 ? p_->freq_mod : p_->data_mod;
      first_ = second_ = 0;
      for_each_lane(live, [&](int lane) {
        unsigned c = m.corrections(tid(lane));
        first_ |= (c & 1u) << lane;
        second_ |= ((c >> 1) & 1u) << lane;
      });
      return first_;
    }
    return second_;
  }

  // tid % size for the warp's consecutive tids: one division per warp, then wrap-around.
  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) const {
    const std::uint64_t base = this->base(mem);
    const std::uint32_t size = this->size(mem);
    const std::uint32_t first = static_cast<std::uint32_t>(tid(0)) % size;
    for_each_lane(mask, [&](int lane) {
      std::uint32_t r = first + static_cast<std::uint32_t>(lane);
      while (r >= size) r -= size;
      addr[lane] = base + 4ull * r;
    });
  }
  // Consecutive elements unless tid % size wraps to 0 between the first and last masked lane.
  std::uint32_t linear_address(std::uint16_t mem, std::uint32_t mask, std::uint64_t& first) const {
    const std::uint32_t size = this->size(mem);
    const auto lo = static_cast<std::uint32_t>(__builtin_ctz(mask)), hi = static_cast<std::uint32_t>(31 - __builtin_clz(mask));
    const std::uint32_t r = (static_cast<std::uint32_t>(tid(0)) % size + lo) % size;
    if (std::uint64_t{r} + (hi - lo) >= size) return 0;
    first = base(mem) + 4ull * r;
    return 4;
  }

 private:
  std::uint64_t base(std::uint16_t mem) const { return mem < 2 ? p_->persistent : p_->streaming; }  // 0, 1: hot
  std::uint32_t size(std::uint16_t mem) const { return static_cast<std::uint32_t>(mem < 2 ? p_->freq : p_->data); }

  const Params* p_;
  WarpPlace w_;
  std::uint32_t first_ = 0, second_ = 0;  // lanes taking the 1st / 2nd correction of the current %
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  std::int64_t persist_bytes = args.integer("persist_bytes"), data_bytes = args.integer("data_bytes");
  if (persist_bytes % 4) args.reject("persist_bytes", "must be a multiple of 4 (an int array)");
  if (data_bytes % 4) args.reject("data_bytes", "must be a multiple of 4 (an int array)");
  PersistParams p;
  p.freq = static_cast<std::int32_t>(persist_bytes / 4);
  p.data = static_cast<std::int32_t>(data_bytes / 4);
  p.freq_mod = IntModulo(p.freq);
  p.data_mod = IntModulo(p.data);
  DeviceHeap heap;
  p.persistent = heap.allocate(std::max<std::uint64_t>(64ull << 20, persist_bytes));
  p.streaming = heap.allocate(data_bytes);
  std::int64_t block = args.integer("block");
  if (args.integer("grid") == 0 && p.data < block)
    args.reject("data_bytes", "dataSize = data_bytes / 4 = " + std::to_string(p.data) + " ints is less than one block");
  KernelInfo info = launch_1d(args, "persistKernel", static_cast<std::uint64_t>(p.data / block * block), 1, false);
  if (info.grid.x * std::uint64_t(info.block.x) > 2147483647ull)
    args.reject("grid", "grid x block exceeds the kernel's int thread index");
  apply_l2_policy(args, p.persistent, info, /*sets_set_aside=*/true);
  return std::make_unique<LibraryKernel<PersistLogic>>(std::move(info),
                                                       sass_program(args.isa(), "_Z13persistKernelPiS_ii"), p);
}

}  // namespace

KernelDef persist_kernel_def() {
  return {"persistKernel",
          "x2 on persistent[tid % freqSize] and streaming[tid % dataSize]: L2 persistence (S4)",
          with_l2_policy({block_param(1024), grid_param("dataSize / block, dataSize = data_bytes / 4"),
                          int_param("persist_bytes", 10ll << 20, "bytes",
                                    "size of the frequently re-read region (freqSize x 4)", 4, 2147483644.0),
                          int_param("data_bytes", 256ll << 20, "bytes",
                                    "size of the streaming region (dataSize x 4); one thread per int", 4,
                                    8589934588.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
