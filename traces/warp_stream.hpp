#pragma once
// A warp's instructions in dynamic execution order, pulled one at a time by the SM model, so
// memory stays bounded by the warps in flight, never by the length of the kernel.
#include "traces/instruction.hpp"

namespace warpsim::traces {

class WarpStream {
 public:
  virtual ~WarpStream() = default;
  // Writes the next instruction into `out` and returns true, or returns false at the end.
  // Sources write every field of a memory instruction, and may skip `addr` otherwise.
  virtual bool next(Instruction& out) = 0;
};

}  // namespace warpsim::traces
