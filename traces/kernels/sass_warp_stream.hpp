#pragma once
// A warp walking its kernel's SASS listing (sass_program.hpp) one instruction per next(): the
// listing gives opcode, unit, registers and memory kind; `Logic` (one object per warp, defined
// next to each kernel) gives what depends on the thread: which lanes leave at `@P EXIT`, where
// a guarded branch goes, which lanes a guarded instruction runs on, and the address of every
// lane of every global/shared/local access (constant loads: one address, uniform_address).
// No allocation per instruction; `addr` is written only for memory instructions. Each listing
// line carries its Instruction head, which next() copies in one piece.
//
// Logic's interface (all by hook ordinal, see SassOp::hook / mem_index):
//   std::uint32_t exit_lanes(std::uint16_t hook, std::uint32_t live);      // lanes leaving
//   bool branch_taken(std::uint16_t hook);                                  // uniform branches
//   std::uint32_t predicated_lanes(std::uint16_t hook, std::uint32_t live); // guard true
//   void addresses(std::uint16_t mem_index, std::uint32_t mask, std::uint64_t* addr);
//   std::uint32_t linear_address(std::uint16_t mem_index, std::uint32_t mask, std::uint64_t& first);
//       // the bytes the masked lanes' addresses grow by from lane to lane, with `first` the
//       // lowest masked lane's; 0 when they are not evenly spaced. Must agree with addresses().
//       // Where it is the access width (consecutive elements), the instruction is lane_linear.
#include <cstddef>
#include <new>
#include <span>
#include <utility>

#include "traces/kernels/sass_program.hpp"
#include "traces/kernels/warp_place.hpp"
#include "traces/warp_stream.hpp"

namespace warpsim::traces::kernels {

// Defaults for kernels without guarded instructions of some kind; reaching one is a bug in the
// kernel's logic, caught by the per-kernel tests.
struct LogicDefaults {
  // KernelSource::blocks_alike: false for kernels whose guards depend on values that vary from
  // block to block (a `%` whose corrections some lanes take).
  static constexpr bool kBlocksAlike = true;
  std::uint32_t exit_lanes(std::uint16_t, std::uint32_t) const { return 0; }
  bool branch_taken(std::uint16_t) { return false; }
  std::uint32_t predicated_lanes(std::uint16_t, std::uint32_t) const { return 0; }
  // Kernels whose accesses are not consecutive elements per lane write every lane's address.
  std::uint32_t linear_address(std::uint16_t, std::uint32_t, std::uint64_t&) const { return 0; }
};

template <class Logic>
class SassWarpStream final : public WarpStream {
 public:
  SassWarpStream(std::span<const SassOp> ops, std::uint32_t live_lanes, Logic logic)
      : ops_(ops.data()), size_(static_cast<std::uint32_t>(ops.size())), live_(live_lanes),
        logic_(std::move(logic)) {}

  bool next(Instruction& out) override {
    if (done_ || index_ >= size_) return false;
    const SassOp& op = ops_[index_];
    std::uint32_t mask = live_;
    std::uint32_t next_index = index_ + 1;
    switch (op.kind) {
      case OpKind::Plain:
        break;
      case OpKind::Predicated:
        mask = logic_.predicated_lanes(op.hook, live_) & live_;
        break;
      case OpKind::CondBranch:
        if (logic_.branch_taken(op.hook))
          next_index = op.target;
        else
          mask = 0;  // the guard is false on every lane: issued, nobody branches
        break;
      case OpKind::Branch:
        next_index = op.target;
        break;
      case OpKind::GuardedExit:
        mask = logic_.exit_lanes(op.hook, live_) & live_;
        live_ &= ~mask;
        done_ = live_ == 0;  // a warp whose lanes all left executes nothing more
        break;
      case OpKind::Exit:
        done_ = true;
        break;
    }
    static_cast<InstructionHead&>(out) = op.head;
    out.active_mask = mask;
    if (op.head.mem_op != MemOp::None && mask != 0) {
      std::uint64_t& first = out.addr[static_cast<std::size_t>(__builtin_ctz(mask))];
      if (op.head.uniform_address)
        first = op.const_offset;  // a kernel parameter
      else if (logic_.linear_address(op.mem_index, mask, first) == op.head.width)
        out.lane_linear = true;  // consecutive elements: the first lane's address stands for all
      else
        logic_.addresses(op.mem_index, mask, out.addr.data());
    }
    index_ = next_index;
    return true;
  }

  WarpStream* move_into(void* storage, std::size_t bytes) override {
    if (sizeof(SassWarpStream) > bytes || alignof(SassWarpStream) > 16) return nullptr;
    return ::new (storage) SassWarpStream(std::move(*this));
  }

  const Logic& logic() const { return logic_; }

 private:
  const SassOp* ops_;
  std::uint32_t size_;
  std::uint32_t index_ = 0;
  std::uint32_t live_;
  bool done_ = false;
  Logic logic_;
};

}  // namespace warpsim::traces::kernels
