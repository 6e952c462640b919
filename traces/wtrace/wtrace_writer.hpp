#pragma once
// Writes the native .wtrace format (FORMAT.md in this folder) from any KernelSource: Accel-Sim
// traces, .wtrace files and the synthetic kernel library alike. A whole workload (memcpy steps
// and every launch) goes into one file. The file appears only when complete: it is written
// under a temporary name and renamed at the end.
#include <cstdint>
#include <string>

#include "traces/kernel_source.hpp"
#include "traces/workload.hpp"

namespace warpsim::traces::wtrace {

struct WriteSummary {
  std::uint64_t bytes = 0;
  std::uint64_t kernels = 0;
  std::uint64_t blocks = 0;
  std::uint64_t instructions = 0;
};

// Every step of `workload`, launches opened one at a time.
WriteSummary write_wtrace(const Workload& workload, const std::string& path);
// One kernel as a workload of one launch named `label`.
WriteSummary write_wtrace(KernelSource& kernel, const std::string& label, const std::string& path);

}  // namespace warpsim::traces::wtrace
