#pragma once
// A warp's instructions in dynamic execution order, pulled one at a time by the SM model, so
// memory stays bounded by the warps in flight, never by the length of the kernel.
#include <cstddef>

#include "traces/instruction.hpp"

namespace warpsim::traces {

class WarpStream {
 public:
  virtual ~WarpStream() = default;
  // Writes the next instruction into `out` and returns true, or returns false at the end.
  // Sources write every field of a memory instruction, uniform_address and lane_linear included (the SM
  // reuses a buffer entry across warps and kernels), and may skip `addr` otherwise.
  virtual bool next(Instruction& out) = 0;
  // Move-constructs this stream into `storage` (`bytes` long, 16-byte aligned) and returns the
  // new object, or returns null when it does not fit; either way the caller still destroys
  // this one. The SM keeps a warp's stream inside the warp's own host memory when it can
  // (models/core/stream_slot.hpp), where prefetching the warp brings it along.
  virtual WarpStream* move_into(void* storage, std::size_t bytes) {
    (void)storage;
    (void)bytes;
    return nullptr;
  }
};

}  // namespace warpsim::traces
