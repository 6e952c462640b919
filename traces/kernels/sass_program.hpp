#pragma once
// A kernel's SASS as data: one SassOp per instruction of the listing (cuobjdump for sm_90, a
// hand-written plausible listing for sm_20 and sm_35; see README.md), generated into
// sass_sm*.cpp by tools/sass_to_cpp.py. A SassWarpStream walks it; the kernel's logic only
// answers the questions the listing cannot: which lanes leave at a guarded EXIT, whether a
// guarded branch is taken, which lanes a guarded instruction runs on, and memory addresses.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "traces/instruction.hpp"
#include "traces/isa_target.hpp"

namespace warpsim::traces::kernels {

// How an instruction moves the warp along, and which hook of the logic it asks.
enum class OpKind : std::uint8_t {
  Plain,        // runs on every live lane
  Predicated,   // @P op: logic.predicated_lanes(hook)
  CondBranch,   // @P BRA: logic.branch_taken(hook); uniform in every kernel of the library
  Branch,       // BRA: always taken
  GuardedExit,  // @P EXIT: logic.exit_lanes(hook) leave; the warp ends when no lane is left
  Exit,         // EXIT: the warp ends
};

// One line of a listing: the Instruction head a warp's stream copies whole at every next()
// (its active mask is then the stream's; constant loads are uniform_address), and how the line
// moves the warp along. 64 bytes, one host cache line.
struct SassOp {
  InstructionHead head;
  OpKind kind;
  std::uint16_t hook;          // ordinal among ops of the same OpKind (guarded ones)
  std::uint16_t mem_index;     // ordinal among global/shared/local accesses
  std::uint32_t target;        // branch target, as an index into the program
  std::uint32_t const_offset;  // LDC: byte offset in constant bank 0
  std::string_view text;       // the listing's line, for messages and tools
};

struct SassProgram {
  std::string_view function;  // mangled name, as in the listing
  std::span<const SassOp> ops;
  // Highest register index used + 1: what ptxas reports as "Used N registers" (R0..Rmax; RZ is
  // not allocated). The occupancy model rounds to its allocation granularity.
  std::uint32_t registers;
};

const std::vector<SassProgram>& sass_programs_sm20();
const std::vector<SassProgram>& sass_programs_sm35();
const std::vector<SassProgram>& sass_programs_sm90();

// The listing of `function` (mangled) for the ISA; sm 80..90 use the sm_90 listing, 30..37 the
// sm_35 one, 20..21 the sm_20 one. Throws InputError for an ISA the library has no listing for.
const SassProgram& sass_program(const IsaTarget& isa, std::string_view function);

}  // namespace warpsim::traces::kernels
