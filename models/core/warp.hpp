#pragma once
// A resident warp's private state: its instruction stream, a two-entry instruction buffer (the
// head and the one after it, which dual issue looks at, S2.3), its scoreboard, where it belongs.
#include <array>
#include <memory>

#include "models/core/scoreboard.hpp"
#include "traces/warp_stream.hpp"

namespace warpsim::models {

struct Warp {
  std::unique_ptr<traces::WarpStream> stream;
  std::array<traces::Instruction, 2> buffer;
  std::uint8_t head = 0;   // index of the next instruction in buffer
  std::uint8_t count = 0;  // instructions buffered (0, 1 or 2)
  bool stream_done = false;

  Scoreboard scoreboard;
  std::uint32_t block_slot = 0;
  std::uint32_t kernel_slot = 0;
  sim::Cycle started = 0;  // the cycle it may first issue: active (occupancy) from then on
  // Whether it is resident, at a barrier, when it may issue and how old it is are the SM's
  // per-scheduler masks and arrays (sm.hpp), the one place the schedulers read them from.

  const traces::Instruction& front() const { return buffer[head]; }

  // Tops the buffer up to `depth` instructions; false when nothing is left to run.
  bool fill(int depth) {
    while (count < depth && !stream_done) {
      if (stream->next(buffer[(head + count) & 1]))
        ++count;
      else
        stream_done = true;
    }
    return count > 0;
  }
  void pop() {
    head ^= 1;
    --count;
  }
};

}  // namespace warpsim::models
