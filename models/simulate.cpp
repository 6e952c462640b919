// simulate(): one self-contained run — preset, workload, GPU, memory system — and its metrics.
#include "models/simulate.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "models/bound/bound.hpp"
#include "models/core/gpu.hpp"
#include "models/memory/memory_system.hpp"
#include "models/sampling/sampler.hpp"
#include "sim/attribution.hpp"
#include "sim/errors.hpp"
#include "sim/output_file.hpp"
#include "traces/kernels/library.hpp"
#include "traces/launch_list.hpp"
#include "traces/open_workload.hpp"

namespace warpsim::models {
namespace {

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

// The metrics of `t`, `m` and their bound `b` in metric_names() order. `cycle_books`: t's active
// cycles and scheduler states are its own (a launch that overlapped others has none: NaN).
std::vector<std::pair<std::string, double>> metrics_of(const Arch& arch, const GpuTotals& t, const MemoryCounters& m,
                                                       const Bound& b, bool cycle_books = true) {
  std::vector<std::pair<std::string, double>> out;
  auto put = [&](const char* name, double value) { out.emplace_back(name, value); };
  const double unknown = std::numeric_limits<double>::quiet_NaN();
  put("warp_instructions", double(t.warp_instructions));
  put("ipc", ratio(double(t.warp_instructions), double(t.cycles) * arch.gpu.sms));
  put("achieved_occupancy",
      cycle_books ? ratio(double(t.warp_cycles), double(t.active_cycles) * arch.sm.max_warps) : unknown);
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
    out.emplace_back(std::string(state_metric(SchedulerState(s))),
                     cycle_books ? ratio(double(t.state_cycles[s]), double(t.scheduler_cycles)) : unknown);
  // S1.3: the share of issued lane-slots that did work (dummy and predicated-off lanes did not).
  put("lane_efficiency", 100.0 * ratio(double(t.active_lanes), 32.0 * double(t.warp_instructions)));
  put("theoretical_occupancy", b.theoretical.fraction());
  put("waves", b.waves);
  for (int r = 0; r < kResourceCount; ++r)
    out.emplace_back("utilization_" + std::string(resource_name(Resource(r))), b.use.of[r]);
  return out;
}

// text_metric_names() order; a run without launches has no verdict.
std::vector<std::pair<std::string, std::string>> text_metrics_of(const Bound& b, bool judged) {
  if (!judged) return {{"limiter", ""}, {"limiter_evidence", ""}, {"occupancy_limit", ""}};
  return {{"limiter", std::string(limiter_name(b.verdict.limiter))},
          {"limiter_evidence", b.verdict.evidence},
          {"occupancy_limit", std::string(limit_name(b.theoretical.limit))}};
}

std::string verdict_of(const Bound& b) { return std::string(limiter_name(b.verdict.limiter)) + ": " + b.verdict.sentence; }

double milliseconds(const Arch& arch, sim::Cycle cycles) {
  return double(cycles) / double(arch.gpu.core_clock_khz);  // cycles / (cycles per ms)
}

// A sampled run's or launch's summary: `credited` of `total` was not simulated in detail.
SamplingSummary summarize(const GpuTotals& total, const GpuTotals& credited, double error_cycles) {
  SamplingSummary s;
  s.asked = true;
  s.sampled = credited.cycles > 0 || credited.warp_instructions > 0;
  s.detail_fraction = 1.0 - ratio(double(credited.warp_instructions), double(total.warp_instructions));
  s.time_error_pct = 100.0 * ratio(error_cycles, double(total.cycles));
  return s;
}

LaunchResult launch_result(const Arch& arch, const Gpu& gpu, std::uint32_t slot, std::uint32_t number,
                           const LaunchTotals& t, const Bound& bound) {
  const traces::KernelInfo& info = gpu.gigathread().kernel(slot).info;
  LaunchResult out;
  out.launch = number;
  out.name = info.name;
  out.grid = {info.grid.x, info.grid.y, info.grid.z};
  out.block = {info.block.x, info.block.y, info.block.z};
  out.start_cycle = t.start;
  out.cycles = t.gpu.cycles;
  out.time_ms = milliseconds(arch, t.gpu.cycles);
  out.overlapped = !t.alone;
  out.metrics = metrics_of(arch, t.gpu, t.memory, bound, t.alone);
  out.text_metrics = text_metrics_of(bound, true);
  out.verdict = verdict_of(bound);
  return out;
}

Bound bound_of_launch(const Arch& arch, const Gpu& gpu, std::uint32_t slot, const LaunchTotals& t) {
  const KernelRun& k = gpu.gigathread().kernel(slot);
  return launch_bound(arch, t.gpu, t.memory, launch_shape(arch, k.info, k.first_dispatch - k.start), t.alone);
}

}  // namespace

RunResult simulate(const RunRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  if (request.kernel.empty() == request.trace.empty())
    throw sim::InputError("run", "give exactly one of --kernel NAME or --trace PATH");
  Arch arch = load_arch(request.arch, request.arch_overrides);
  if (!request.kernel_params.empty() && !request.trace.empty())
    throw sim::InputError("-p", "kernel parameters apply to library kernels, not to --trace");
  traces::Workload workload;
  std::vector<std::uint32_t> numbers;  // of the launches run, in order
  if (!request.trace.empty()) {
    workload = traces::open_workload(request.trace);
    const std::uint32_t count = traces::launch_count(workload);
    numbers = traces::keep_launches(
        workload, request.launches.empty() ? std::vector<bool>(count, true) : traces::launch_mask(request.launches, count));
    traces::open_first_launch(workload);  // its blocks are read while the GPU is built
  }
  sim::StatsRegistry stats;
  auto memory = make_memory_system(memory_system_specs(arch), stats, request.seed);
  Gpu gpu(arch, *memory, stats, request.lockstep, request.threads, request.threads_join_after);
  WarpTimeline timeline;
  if (!request.timeline.empty()) {
    sim::check_output_file(request.timeline, "--timeline");  // before the run, not after it
    gpu.record_timeline(&timeline);
  }
  const LaunchPolicy policy{request.ncu, request.ncu && request.ncu_flush_caches};
  std::optional<sampling::Sampler> sampler;
  if (request.sample) sampler.emplace(arch, gpu, request.seed);

  RunResult out;
  out.arch = request.arch;
  out.ncu = request.ncu;
  out.ncu_flush_caches = policy.flush_caches;
  if (!request.kernel.empty()) {
    auto kernel = traces::kernels::make_kernel(request.kernel, request.kernel_params,
                                               traces::IsaTarget{arch.gpu.sm_version});
    if (!request.launches.empty()) traces::launch_mask(request.launches, 1);  // a library kernel is launch 1
    out.kernel = request.kernel;
    out.params = kernel.params;
    gpu.run(std::move(kernel.source), policy);
  } else {
    out.kernel = request.trace;
    gpu.run(workload, policy);
  }
  GpuTotals totals = gpu.totals();
  MemoryCounters memory_totals = memory->counters();
  std::vector<LaunchTotals> launches;
  for (std::uint32_t k = 0; k < gpu.launch_count(); ++k)
    launches.push_back(sampler ? sampler->launch_totals(k) : gpu.launch_totals(k));
  if (sampler) {
    sim::add_counts(totals, sampler->added_gpu());
    sim::add_counts(memory_totals, sampler->added_memory());
  }
  if (request.ncu) {
    // ncu's view of the run: the sum of its launches, each alone and timed from its own start;
    // the gaps between them and what the cache flushes wrote back are in none.
    totals = GpuTotals{};
    memory_totals = MemoryCounters{};
    for (const auto& l : launches) {
      sim::add_counts(totals, l.gpu);
      sim::add_counts(memory_totals, l.memory);
    }
  }
  out.cycles = totals.cycles;
  out.time_ms = milliseconds(arch, totals.cycles);
  out.warp_instructions = totals.warp_instructions;
  out.warnings = gpu.warnings();
  std::vector<Bound> bounds;
  std::vector<std::uint64_t> launch_cycles;
  for (std::uint32_t k = 0; k < launches.size(); ++k) {
    bounds.push_back(bound_of_launch(arch, gpu, k, launches[k]));
    launch_cycles.push_back(launches[k].gpu.cycles);
  }
  const Bound run = run_bound(arch, totals, memory_totals, bounds, launch_cycles);
  out.metrics = metrics_of(arch, totals, memory_totals, run);
  out.text_metrics = text_metrics_of(run, !bounds.empty());
  if (!bounds.empty()) out.verdict = verdict_of(run);
  for (std::uint32_t k = 0; k < numbers.size(); ++k)
    out.kernels.push_back(launch_result(arch, gpu, k, numbers[k], launches[k], bounds[k]));
  if (sampler) {
    double error = 0;
    for (std::uint32_t k = 0; k < gpu.launch_count(); ++k) {
      const sampling::SampleRecord& r = sampler->record(k);
      error += r.error_cycles;
      if (k >= out.kernels.size()) continue;
      LaunchResult& l = out.kernels[k];
      l.start_cycle += r.offset_before;
      GpuTotals credited = r.added.gpu;
      credited.cycles = r.skipped_cycles;
      l.sampling = summarize(launches[k].gpu, credited, r.error_cycles);
      l.sampling.fallback = r.fallback;
    }
    out.sampling = summarize(totals, sampler->added_gpu(), error);
    if (!out.sampling.sampled) out.sampling.fallback = gpu.launch_count() == 1 ? sampler->record(0).fallback
                                                                                : "no launch could be sampled";
    for (auto& w : sampler->warnings(numbers)) out.warnings.push_back(std::move(w));
  }
  if (!request.timeline.empty()) timeline.write_csv(request.timeline, numbers, "--timeline");
  if (request.stats) out.stats = stats.snapshot();
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace warpsim::models
