#pragma once
// A resident warp's private state: its instruction stream, a two-entry instruction buffer (the
// head and the one after it, which dual issue looks at, S2.3), its scoreboard, where it belongs.
#include <array>

#include "models/core/scoreboard.hpp"
#include "models/core/stream_slot.hpp"

namespace warpsim::models {

struct Warp {
  // Host layout: what every issue reads first (the buffer's state, the head instruction's
  // fields) shares the first 64-byte line; the scoreboard adds three (its epoch and written
  // bits, then P0-P7 with R0-R7, then R8-R23) and the stream two. A GPU holds 8,448 warps, more
  // than the host's caches, so Sm::prefetch loads these lines before the tick that reads them.
  std::uint8_t head = 0;   // index of the next instruction in buffer
  std::uint8_t count = 0;  // instructions buffered (0, 1 or 2)
  bool stream_done = false;
  std::uint32_t block_slot = 0;
  std::uint32_t kernel_slot = 0;
  std::uint32_t index_in_block = 0;  // its warp id within the block (S1.2)
  sim::Cycle started = 0;  // the cycle it may first issue: active (occupancy) from then on
  std::array<traces::Instruction, 2> buffer;
  // When the head instruction was fetched, and when a barrier released it since (kNever if
  // not): what its stamp was computed from, so Sm::refresh_head can compute it again.
  sim::Cycle head_at = 0;
  sim::Cycle released_at = 0;
  bool answered = false;  // in Sm::answered_ already
  Scoreboard scoreboard;
  StreamSlot stream;
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
    // An emptied buffer starts over at entry 0: a preset without dual issue keeps one entry
    // (one host cache line) in use instead of alternating between two.
    head = --count == 0 ? 0 : head ^ 1;
  }
};

}  // namespace warpsim::models
