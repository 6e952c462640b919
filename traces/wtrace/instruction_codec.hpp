#pragma once
// One warp's instructions <-> bytes. Each instruction is coded relative to the previous one of
// the same warp (PC delta, first address delta), and a warp's lanes as deltas from the previous
// active lane, or one stride when they are evenly spaced (the coalesced case): small varints
// that deflate then squeezes further. Layout in FORMAT.md.
#include <cstdint>

#include "traces/instruction.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {

// Per-warp coding state; starts fresh at each warp.
struct WarpCodingState {
  std::uint32_t pc = 0;
  std::uint64_t first_address = 0;
};

void encode_instruction(const Instruction& inst, WarpCodingState& state, ByteWriter& out);
// Writes every field of `inst` (addresses of inactive lanes read as 0; `addr` untouched for
// instructions without a memory operation). Throws DecodeError on malformed bytes.
void decode_instruction(ByteReader& in, WarpCodingState& state, Instruction& inst);

}  // namespace warpsim::traces::wtrace
