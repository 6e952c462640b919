#pragma once
// One kernel on a one-SM GPU whose blocks start at once (no kernel start, no block or warp
// launch delays) against a memory that answers after a fixed latency: the SM's rules alone decide
// the cycle counts, so tests can state them exactly (test_sm_core.cpp, test_taken_branch.cpp).
#include <memory>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "tests/models/mock_workload.hpp"

namespace warpsim::test {

struct Outcome {
  models::GpuTotals totals;
  double ipc() const { return double(totals.warp_instructions) / double(totals.cycles); }
  double dual_fraction() const { return double(totals.dual_issues) / double(totals.issue_events); }
  double state_fraction(models::SchedulerState s) const {
    return double(totals.state_cycles[int(s)]) / double(totals.scheduler_cycles);
  }
};

inline Outcome run_on(const char* preset, std::uint32_t blocks, std::uint32_t threads, ProgramKernel::Program program,
                      std::vector<std::string> extra = {}) {
  std::vector<std::string> overrides = {"gpu.sms=1", "dispatch.kernel_start_ns=0", "dispatch.block_start_latency_cycles=0",
                                        "dispatch.warp_launch_interval_cycles=0", "dispatch.block_interval_cycles=1"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  models::Arch arch = models::load_arch(preset, overrides);
  FixedLatencyMemory memory(100);
  sim::StatsRegistry stats;
  models::Gpu gpu(arch, memory, stats);
  gpu.run(std::make_unique<ProgramKernel>(blocks, threads, std::move(program)));
  return Outcome{gpu.totals()};
}

}  // namespace warpsim::test
