// simulate(): one self-contained run — preset, workload, GPU, memory system — and its metrics.
#include "models/simulate.hpp"

#include <chrono>

#include "models/core/gpu.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/errors.hpp"
#include "traces/kernels/library.hpp"
#include "traces/open_workload.hpp"

namespace warpsim::models {
namespace {

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

void fill_metrics(RunResult& out, const Arch& arch, const GpuTotals& t, const MemoryCounters& m) {
  auto put = [&](const char* name, double value) { out.metrics.emplace_back(name, value); };
  put("warp_instructions", double(t.warp_instructions));
  put("ipc", ratio(double(t.warp_instructions), double(t.cycles) * arch.sms));
  put("achieved_occupancy", ratio(double(t.warp_cycles), double(t.active_cycles) * arch.max_warps_per_sm));
  put("dual_issue_fraction", ratio(double(t.dual_issues), double(t.issue_events)));
  put("gld_requests", double(m.gld_requests));
  put("gld_sectors", double(m.gld_sectors));
  put("gld_transactions", double(m.gld_transactions));
  put("gld_efficiency", 100.0 * ratio(double(m.gld_bytes_requested), double(m.gld_bytes_moved)));
  put("gst_requests", double(m.gst_requests));
  put("gst_sectors", double(m.gst_sectors));
  put("gst_transactions", double(m.gst_transactions));
  put("gst_efficiency", 100.0 * ratio(double(m.gst_bytes_requested), double(m.gst_bytes_moved)));
  put("l1_hit_rate", 100.0 * ratio(double(m.l1_sector_hits), double(m.l1_sector_lookups)));
  put("l2_hit_rate", 100.0 * ratio(double(m.l2_sector_hits), double(m.l2_sector_lookups)));
  put("dram_read_bytes", double(m.dram_read_bytes));
  put("dram_write_bytes", double(m.dram_write_bytes));
  put("shared_bank_conflicts", double(m.shared_bank_conflicts));
  put("replays", double(m.replays));
  for (int s = 1; s < kSchedulerStateCount; ++s)
    out.metrics.emplace_back(std::string(state_metric(SchedulerState(s))),
                             ratio(double(t.state_cycles[s]), double(t.scheduler_cycles)));
  // S1.3: the share of issued lane-slots that did work (dummy and predicated-off lanes did not).
  put("lane_efficiency", 100.0 * ratio(double(t.active_lanes), 32.0 * double(t.warp_instructions)));
}

}  // namespace

RunResult simulate(const RunRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  if (request.kernel.empty() == request.trace.empty())
    throw sim::InputError("run", "give exactly one of --kernel NAME or --trace PATH");
  Arch arch = load_arch(request.arch, request.arch_overrides);
  sim::StatsRegistry stats;
  auto memory = make_memory_system(arch, stats, request.seed);
  Gpu gpu(arch, *memory, stats, request.lockstep);

  RunResult out;
  out.arch = request.arch;
  if (!request.kernel.empty()) {
    auto kernel = traces::kernels::make_kernel(request.kernel, request.kernel_params,
                                               traces::IsaTarget{arch.sm_version});
    out.kernel = request.kernel;
    out.params = kernel.params;
    gpu.run(std::move(kernel.source));
  } else {
    if (!request.kernel_params.empty())
      throw sim::InputError("-p", "kernel parameters apply to library kernels, not to --trace");
    traces::Workload workload = traces::open_workload(request.trace);
    out.kernel = request.trace;
    gpu.run(workload);
  }
  GpuTotals totals = gpu.totals();
  out.cycles = totals.cycles;
  out.time_ms = double(totals.cycles) / double(arch.core_clock_khz);  // cycles / (cycles per ms)
  out.warp_instructions = totals.warp_instructions;
  out.warnings = gpu.warnings();
  fill_metrics(out, arch, totals, memory->counters());
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace warpsim::models
