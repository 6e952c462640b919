#pragma once
// Reads one warp instruction of a .wtrace version 1 file (FORMAT.md, "Version 1"): each coded
// relative to the previous one of the same warp (PC delta, first address delta), a warp's lanes
// as deltas from the previous active lane or as one stride. Version 2 writers no longer produce
// it; the version 1 reader turns such instructions into version 2 blocks.
#include <cstdint>

#include "traces/instruction.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace::v1 {

// Per-warp coding state; starts fresh at each warp.
struct WarpCodingState {
  std::uint32_t pc = 0;
  std::uint64_t first_address = 0;
};

// Writes every field of `inst` (addresses of inactive lanes read as 0; `addr` untouched for
// instructions without a memory operation). Throws DecodeError on malformed bytes.
void decode_instruction(ByteReader& in, WarpCodingState& state, Instruction& inst);

}  // namespace warpsim::traces::wtrace::v1
