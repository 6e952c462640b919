// chase (kernels.cu's pointer chase, one thread): p = next[p] `steps` times, then *sink = p and
// *cycles = the clock difference. next[] holds a random cyclic permutation of the working set
// at 128-byte granularity, built exactly as main() builds it (srand(7), glibc rand(), the same
// Fisher-Yates shuffle), and the chase starts where main()'s measured launch does:
// order[lines / 2]. main() warms the caches with a first launch that walks the whole cycle from
// order[0]; `warmup_steps` puts that walk in front of the measured one, in the same launch (the
// caches see the same accesses; the instruction stream has one loop of warmup_steps + steps).
// One thread: grid 1, block 1, lane 0 only (S1.3). The loop follows the listing's branch
// skeleton (unrolled_loop.hpp). Memory ordinals: every global load is one step of the chase;
// the last two accesses are the stores to sink and cycles.
// Buffers as main(): next (working_set_bytes), sink (4 B), cycles (8 B); the window starts at next.
#include <numeric>

#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/glibc_rand.hpp"
#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/kernel_defs.hpp"
#include "traces/kernels/library_kernel.hpp"
#include "traces/kernels/param_specs.hpp"
#include "traces/kernels/unrolled_loop.hpp"

namespace warpsim::traces::kernels {
namespace {

struct ChaseParams {
  std::uint64_t next = 0, sink = 0, cycles = 0;
  std::int32_t steps = 0;
  std::int32_t warmup_steps = 0;
  std::uint16_t loads = 0;  // global loads in the listing; the two accesses after them are stores
  std::shared_ptr<const std::vector<std::uint32_t>> order;  // line visited at each position
};

class ChaseLogic : public LogicDefaults {
 public:
  using Params = ChaseParams;
  ChaseLogic(const Params& p, const WarpPlace&)
      : p_(&p), loop_(p.steps + p.warmup_steps), position_(p.warmup_steps > 0 ? 0u : measured_start(p)) {}

  bool branch_taken(std::uint16_t hook) { return loop_.taken(hook); }

  void addresses(std::uint16_t mem, std::uint32_t mask, std::uint64_t* addr) {
    std::uint64_t a;
    if (mem < p_->loads) {
      // next[p] with p = order[position] * 32 (a float index at the start of a 128-byte line).
      a = p_->next + 128ull * (*p_->order)[position_];
      position_ = static_cast<std::uint32_t>((position_ + 1) % p_->order->size());
      if (++loads_done_ == static_cast<std::uint64_t>(p_->warmup_steps)) position_ = measured_start(*p_);
    } else {
      a = mem == p_->loads ? p_->sink : p_->cycles;
    }
    for_each_lane(mask, [&](int lane) { addr[lane] = a; });
  }

 private:
  static std::uint32_t measured_start(const Params& p) { return static_cast<std::uint32_t>(p.order->size() / 2); }

  const Params* p_;
  std::uint64_t loads_done_ = 0;
  UnrolledLoop loop_;
  std::uint32_t position_;
};

std::unique_ptr<KernelSource> build(KernelArgs& args) {
  std::int64_t bytes = args.integer("working_set_bytes");
  if (bytes % 128) args.reject("working_set_bytes", "must be a multiple of the 128-byte line, got " + std::to_string(bytes));
  ChaseParams p;
  p.steps = static_cast<std::int32_t>(args.integer("steps"));
  p.warmup_steps = static_cast<std::int32_t>(args.integer("warmup_steps"));
  if (std::int64_t(p.steps) + p.warmup_steps > 2147483647)
    args.reject("warmup_steps", "steps + warmup_steps must fit the kernel's int loop counter");
  DeviceHeap heap;
  p.next = heap.allocate(static_cast<std::uint64_t>(bytes));
  p.sink = heap.allocate(4);
  p.cycles = heap.allocate(8);
  // main(): order = 0..lines-1; srand(7); for i = lines-1 down to 1: swap(order[i], order[rand() % (i+1)]).
  auto order = std::make_shared<std::vector<std::uint32_t>>(static_cast<std::size_t>(bytes / 128));
  std::iota(order->begin(), order->end(), 0u);
  GlibcRand rand(7);
  for (std::size_t i = order->size() - 1; i > 0; --i)
    std::swap((*order)[i], (*order)[static_cast<std::size_t>(rand.next()) % (i + 1)]);
  p.order = std::move(order);
  const SassProgram& program = sass_program(args.isa(), "_Z5chasePKjjiPjPx");
  for (const auto& op : program.ops)
    if (op.head.space == MemSpace::Global && op.head.mem_op == MemOp::Load) ++p.loads;
  KernelInfo info;
  info.name = "chase";
  info.grid = Dim3{1, 1, 1};
  info.block = Dim3{1, 1, 1};
  apply_l2_policy(args, p.next, info);
  return std::make_unique<LibraryKernel<ChaseLogic>>(std::move(info), program, p);
}

}  // namespace

KernelDef chase_def() {
  return {"chase", "one thread follows a random cycle of 128-byte lines: load-to-use latency per level",
          with_l2_policy({int_param("working_set_bytes", 1 << 20, "bytes",
                                    "size of the chased array (main(): 16 KB L1, 1 MB and 16 MB L2, 1 GB DRAM)", 128,
                                    4294967296.0),
                          int_param("steps", 20000, "loads", "dependent loads", 0, 2147483647.0),
                          int_param("warmup_steps", 0, "loads",
                                    "loads chased from order[0] first, as main()'s warm-up launch (it uses one per line "
                                    "for working sets up to 16 MB)",
                                    0, 2147483647.0)}),
          build};
}

}  // namespace warpsim::traces::kernels
