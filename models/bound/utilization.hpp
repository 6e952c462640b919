#pragma once
// How busy each resource of the GPU was during a launch or a run: what it served divided by what
// the preset says it can serve in the elapsed time, kernel start included (as Nsight Compute's
// pct_of_peak_sustained_elapsed). The resources are those the model queues work on: the
// schedulers' issue slots, each execution-unit class (S2.5), the LSU path through L1 (one
// 128-byte wavefront a cycle per SM), shared memory (one wavefront a cycle, a bank conflict
// costing one more, S3.10), the L2 slices' ports and DRAM.
#include <array>
#include <cstdint>
#include <string_view>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "models/memory/memory_system.hpp"

namespace warpsim::models {

enum class Resource : std::uint8_t {
  Issue,  // scheduler-cycles that issued, of all scheduler-cycles (ncu smsp__issue_active)
  // One per execution-unit class (traces::Unit order): issue slots taken, replays included, of
  // the lanes / 32 warp instructions the class accepts per cycle per SM.
  PipeInt,
  PipeFp32,
  PipeFp64,
  PipeSfu,
  PipeLdSt,
  PipeTensor,
  PipeControl,
  L1Wavefronts,  // LSU passes through L1 (global and local), of one a cycle per SM
  L1Sectors,     // L1 sector lookups, of a 128-byte line's sectors a cycle per SM
  Shared,        // shared-memory wavefronts (bank conflicts included), of one a cycle per SM
  L2,            // L2 sector lookups, of each slice's port rate, averaged over the slices
  Dram,          // bytes read and written, of the preset's DRAM bandwidth
};
inline constexpr int kResourceCount = 13;

// "issue", "int", "fp32", "fp64", "sfu", "ldst", "tensor", "control", "l1_wavefronts",
// "l1_sectors", "shared", "l2", "dram": the keys of run --json's "utilization".
std::string_view resource_name(Resource r);
// The pipe of an execution-unit class.
Resource pipe_of(traces::Unit unit);

struct Utilization {
  std::array<double, kResourceCount> of{};  // fraction of peak, by Resource
  double operator[](Resource r) const { return of[static_cast<int>(r)]; }
};

// `t.cycles` is the elapsed time the counts are divided by.
Utilization utilization(const Arch& arch, const GpuTotals& t, const MemoryCounters& m);

// The peaks the fractions are of, per second, for documents and the roofline: warp instructions
// the schedulers can issue, and DRAM bytes.
double peak_issue_per_second(const Arch& arch);

}  // namespace warpsim::models
