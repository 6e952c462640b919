#pragma once
// A kernel read from a trace file, whatever its format (Accel-Sim .traceg, .wtrace): where it
// came from, for `warpsim trace info` and for .wtrace files, which carry it along so that a
// converted trace still says which tracer and SM version produced it; and the blocks it holds.
#include <cstdint>
#include <optional>
#include <string>

#include "traces/kernel_source.hpp"

namespace warpsim::traces {

struct TraceOrigin {
  std::string format;          // "accelsim", "wtrace <- accelsim", "library"...
  std::string tracer_version;  // Accel-Sim tracer version as written ("5", "1.2", "legacy"); "" if none
  int binary_version = 0;      // SM version the SASS was compiled for (80 = sm_80); 0 if unknown
};

// A KernelSource read from a trace file, which knows its origin.
class TracedKernelSource : public KernelSource {
 public:
  virtual TraceOrigin origin() const = 0;
  // The id of the first block at or after `from` that the trace holds, or nullopt if none: lets
  // tools walk a sparse trace (a huge grid of which few blocks were traced, or a corrupt grid
  // size) without asking for every id. Follows open_block's rules: ids increase, an earlier id
  // rereads from the start.
  virtual std::optional<std::uint64_t> next_traced_block(std::uint64_t from) = 0;
};

// Calls `visit(id)` for every block id of `source` that may have warps: every traced block of a
// TracedKernelSource, every id of the grid otherwise.
template <typename Visit>
void for_each_block(KernelSource& source, Visit visit) {
  if (auto* traced = dynamic_cast<TracedKernelSource*>(&source)) {
    for (auto id = traced->next_traced_block(0); id; id = traced->next_traced_block(*id + 1)) visit(*id);
    return;
  }
  const std::uint64_t blocks = source.info().grid.count();
  for (std::uint64_t id = 0; id < blocks; ++id) visit(id);
}

}  // namespace warpsim::traces
