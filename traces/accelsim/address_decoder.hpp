#pragma once
// The per-lane addresses of a memory instruction line (FORMAT.md "Address compression"):
// mode 0 lists every active lane, mode 1 is base + constant stride over one contiguous run,
// mode 2 is a base followed by popcount(mask)-1 deltas, each from the previous active lane.
#include <array>
#include <cstdint>

#include "traces/accelsim/field_cursor.hpp"
#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

// Reads "mode ..." from `fields` and writes one address per lane into `addr`: active lanes get
// their address, inactive lanes 0. Reads exactly the fields the mode and mask call for (so the
// caller can then expect the v5 immediate or the end of the line). Throws LineError for an
// unknown mode, a missing or malformed address/delta, or a base_stride line whose mask is not
// one contiguous run (the tracer never writes one, and decoding it would invent zero addresses).
void decode_addresses(FieldCursor& fields, std::uint32_t active_mask, std::array<std::uint64_t, kWarpSize>& addr);

}  // namespace warpsim::traces::accelsim
