#pragma once
// One warp instruction as the timing model sees it: which execution unit it needs, which
// registers it reads and writes (for the scoreboard), which lanes are active, and for memory
// instructions the space, operation, width, cache operator and one address per lane.
#include <array>
#include <cstdint>
#include <string_view>

namespace warpsim::traces {

// Execution-unit class (SPEC S2.1, S2.5). Control covers branches, NOPs and other instructions
// that need an issue slot but no arithmetic pipe.
enum class Unit : std::uint8_t { Int, Fp32, Fp64, Sfu, LdSt, Tensor, Control };
inline constexpr int kUnitCount = 7;

// Instructions that change a warp's life rather than compute: a block barrier (S2.8) and exit.
enum class Control : std::uint8_t { None, Barrier, Exit };

enum class MemSpace : std::uint8_t { None, Global, Shared, Local, Constant };
enum class MemOp : std::uint8_t { None, Load, Store, Atomic };
// The PTX cache operator of a global access: default (.ca on Fermi), .cg (L2 only, S3.3),
// read-only/non-coherent path (__ldg, LDG.CONSTANT, S3.6), streaming (.cs).
enum class CacheOp : std::uint8_t { Default, Global, ReadOnly, Streaming };

// Register numbers: 0..254 are R0..R254; RZ and absent operands are kNoReg; predicates P0..P6
// are 256..262 so that a predicated branch can depend on the ISETP that set its predicate.
using Reg = std::uint16_t;
inline constexpr Reg kNoReg = 0xffff;
inline constexpr Reg kRegRZ = 255;
inline constexpr Reg predicate_reg(int p) { return static_cast<Reg>(256 + p); }
inline constexpr int kMaxDst = 2;
inline constexpr int kMaxSrc = 5;
inline constexpr int kWarpSize = 32;
inline constexpr std::uint32_t kFullMask = 0xffffffffu;

// Everything about a warp instruction but its addresses: what a kernel-library stream copies
// from its listing line (SassOp) in one assignment at every next(), and what the scheduler and
// scoreboard read. 32 bytes, ahead of the addresses in Instruction.
struct InstructionHead {
  std::uint32_t pc = 0;
  std::uint32_t active_mask = kFullMask;  // lanes that execute (after predication); may be 0
  Unit unit = Unit::Int;
  Control control = Control::None;
  std::uint8_t dst_count = 0;
  std::uint8_t src_count = 0;
  std::array<Reg, kMaxDst> dst{kNoReg, kNoReg};
  std::array<Reg, kMaxSrc> src{kNoReg, kNoReg, kNoReg, kNoReg, kNoReg};

  MemSpace space = MemSpace::None;
  MemOp mem_op = MemOp::None;
  CacheOp cache_op = CacheOp::Default;
  std::uint8_t width = 0;  // bytes per lane: 1, 2, 4, 8 or 16
  // Every active lane accesses the first active lane's address, and only that entry of `addr`
  // is written. The kernel library sets it on constant loads (kernel parameters): writing 32
  // equal addresses dragged four cold host cache lines of the warp's buffer in at every LDC,
  // and the memory system read them all back to find them equal. Every producer sets it (false
  // unless it knows). Only constant loads carry it, so the global and shared paths read `addr`
  // directly; code that may meet a constant load's addresses goes through address().
  bool uniform_address = false;
  // The active lanes access consecutive elements: lane k's address is the first active lane's
  // plus (k - first) * width, and only the first active lane's entry of `addr` is written. The
  // kernel library sets it where its lanes index an array by thread (C[i], A[i + offset]): 32
  // addresses written and read back per access were four host cache lines of the warp's buffer
  // for a pair of numbers. Every producer sets it (false unless it knows); the coalescer takes
  // such an access's byte range without looking at lanes, and other readers use address().
  bool lane_linear = false;

  bool is_memory() const { return mem_op != MemOp::None; }
  int active_lanes() const { return __builtin_popcount(active_mask); }
};

struct Instruction : InstructionHead {
  // One address per lane; only lanes set in active_mask are meaningful. Not written for
  // non-memory instructions (the stream leaves the previous contents), to keep decoding cheap.
  std::array<std::uint64_t, kWarpSize> addr;

  // The address of active lane `lane`.
  std::uint64_t address(int lane) const {
    if (!uniform_address && !lane_linear) return addr[static_cast<std::size_t>(lane)];
    const int first = __builtin_ctz(active_mask);
    const std::uint64_t base = addr[static_cast<std::size_t>(first)];
    return uniform_address ? base : base + std::uint64_t(lane - first) * width;
  }
};

std::string_view unit_name(Unit u);
std::string_view space_name(MemSpace s);

}  // namespace warpsim::traces
