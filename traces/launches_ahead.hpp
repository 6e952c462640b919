#pragma once
// A workload's launches, opened ahead of the run that takes them. Opening a traced launch reads
// its header and starts reading its blocks on a thread of its own (block_pipeline.hpp), so a
// launch opened before the GPU waits (a launch for the one before it in its stream, a copy for
// every kernel) is read while the GPU runs what it waits for. With only the next launch open, a
// trace of short launches whose reading takes longer than their simulation runs at the reading's
// pace with one core idle: bfs's 16 launches each take ~5 ms to read from .traceg.xz and ~2 ms
// to simulate. With two open, two launches are read at once while the simulation waits for the
// first. ReadAheadTurns still lets only the oldest read past its head start, so memory stays
// bounded by one launch's reading, not by how many are open.
#include <cstddef>
#include <map>
#include <memory>

#include "traces/workload.hpp"

namespace warpsim::traces {

class LaunchesAhead {
 public:
  static constexpr std::size_t kOpenAhead = 2;

  // `workload` outlives this; its steps are opened through their `open` functions, once each.
  explicit LaunchesAhead(Workload& workload) : workload_(workload) {}

  // Opens the first kOpenAhead launch steps from step `step` on (that one included) that are
  // not open yet. Call it before the GPU waits at step `step`.
  void open_from(std::size_t step);
  // Launch step `step`'s source, opened now if it is not open yet.
  std::unique_ptr<KernelSource> take(std::size_t step);

 private:
  Workload& workload_;
  std::map<std::size_t, std::unique_ptr<KernelSource>> open_;  // by step, not yet taken
  std::size_t opened_up_to_ = 0;  // every launch step before this one has been opened
};

}  // namespace warpsim::traces
