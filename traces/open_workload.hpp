#pragma once
// The one entry point the rest of warpsim uses to read traces: a path in, a Workload out,
// whatever the format. Plus the per-kernel summary `warpsim trace info` prints.
#include <cstdint>
#include <string>
#include <vector>

#include "traces/traced_kernel_source.hpp"
#include "traces/workload.hpp"

namespace warpsim::traces {

// Opens `path` by what it is:
//   - a file named kernelslist.g (or any other file that is not one of the below): Accel-Sim
//     command list, MemcpyHtoD steps and launches in order;
//   - a directory: its kernelslist.g;
//   - *.traceg, *.traceg.xz: one Accel-Sim kernel;
//   - *.wtrace: a native trace (one kernel or a whole workload).
// Launch steps open their files lazily. Throws sim::InputError naming the file and line.
Workload open_workload(const std::string& path);

struct KernelSummary {
  std::string label;  // file name in the trace, or kernel name
  KernelInfo info;
  TraceOrigin origin;
  std::uint64_t blocks_traced = 0;        // thread blocks present in the trace
  std::uint64_t instructions = 0;         // warp instructions (Accel-Sim: instruction lines)
  std::uint64_t memory_instructions = 0;  // of which carry addresses
  std::vector<std::string> warnings;
};

struct WorkloadSummary {
  std::string name;
  std::uint64_t memcpy_steps = 0;
  std::uint64_t memcpy_bytes = 0;
  std::vector<KernelSummary> kernels;
};

// Reads every block of every warp of `source` once (memory bounded by one block).
KernelSummary summarize_kernel(KernelSource& source, const std::string& label);
// Opens each launch in turn and summarizes it.
WorkloadSummary summarize_workload(const Workload& workload);

}  // namespace warpsim::traces
