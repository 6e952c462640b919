#pragma once
// SASS mnemonic -> what the timing model needs to know about it: the execution unit, whether
// it ends the warp or waits at a barrier, and for memory instructions the operation, the state
// space and the cache operator. One table covers sm_61, 70, 75, 80, 86 and 90; entries carry the
// first (and last) SM version that has the opcode, so a Volta-only mnemonic in a Pascal trace
// is reported as unknown rather than silently accepted.
//
// Decisions (documented here because the timing model relies on them):
// - An opcode the table does not know is NOT an error: it is classed as Unit::Int (or, when the
//   line carries addresses, as a load whose space is decided like a generic LD) and the kernel
//   source reports one warning per mnemonic through KernelSource::warnings(). New SASS appears
//   with every architecture and a run should not die on one unfamiliar instruction.
// - EXIT -> Control::Exit; BAR.SYNC/BAR.RED (and plain BAR) -> Control::Barrier; BAR.ARV (arrive
//   without waiting) -> no control effect. Every branch, reconvergence (BSSY/BSYNC/SSY/SYNC),
//   fence and scoreboard wait (MEMBAR, FENCE, DEPBAR, LDGDEPBAR, ERRBAR, CCTL, WARPSYNC,
//   NANOSLEEP, SYNCS...) is Unit::Control with Control::None: the trace already holds each
//   warp's dynamic order and the memory-model effect of a fence is not modelled.
// - LDC (constant-cache load, no addresses traced) is Unit::LdSt with no memory operation; ULDC
//   (uniform datapath) is Unit::Int. Texture/surface/TMA ops are Unit::LdSt without addresses.
// - Conversions (I2F, F2I, F2F, I2I, FRND) and MUFU use the SFU/XU; F2FP (a pack) is Fp32.
#include <cstdint>
#include <optional>
#include <string_view>

#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

// Where a memory opcode's addresses live. Generic means "decide per instruction from the first
// active lane's address and the header's shared/local windows" (LD, ST, ATOM, RED).
enum class SpaceRule : std::uint8_t { None, Global, Shared, Local, Constant, Generic };

struct OpcodeClass {
  Unit unit = Unit::Int;
  Control control = Control::None;
  MemOp mem_op = MemOp::None;
  SpaceRule space = SpaceRule::None;
  CacheOp cache_op = CacheOp::Default;
};

// The SM version whose table a trace of `binary_version` uses: 60 and 62 read as 61, 72 as 70,
// 87 and 89 as 86, anything newer than 90 as 90, anything older than 61 as 61. `exact` tells
// whether the version was one of the six tables.
struct TableChoice {
  int sm = 0;
  bool exact = false;
};
TableChoice opcode_table_for(int binary_version);

// Classifies a full mnemonic ("LDG.E.128.SYS", "BAR.SYNC.DEFER_BLOCKING") for SM version `sm`
// (one of 61, 70, 75, 80, 86, 90). Returns nullopt for a mnemonic the table does not know.
std::optional<OpcodeClass> classify_opcode(std::string_view mnemonic, int sm);

// The mnemonic before the first '.': "LDG" for "LDG.E.128".
std::string_view base_opcode(std::string_view mnemonic);

}  // namespace warpsim::traces::accelsim
