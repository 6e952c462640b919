#include "cli/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace warpsim::cli {
namespace {

double metric(const models::RunResult& r, const std::string& name) {
  for (const auto& [n, v] : r.metrics)
    if (n == name) return v;
  return std::nan("");
}

std::string text_metric(const models::RunResult& r, const std::string& name) {
  for (const auto& [n, v] : r.text_metrics)
    if (n == name) return v;
  return "";
}

std::string format(const char* fmt, double a = 0, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

std::string percent(double share) { return std::isnan(share) ? "-" : format("%.0f%%", 100 * share); }

// 30 cells of '#' and '.', a share of 1 filling them all; above 1 (a unit the model lets run past
// its nominal rate for a cycle) still 30.
std::string bar(double share) {
  constexpr int kCells = 30;
  const int filled = std::isnan(share) ? 0 : std::clamp(static_cast<int>(std::lround(share * kCells)), 0, kCells);
  return std::string(filled, '#') + std::string(kCells - filled, '.');
}

}  // namespace

void print_run_summary(std::ostream& out, const models::RunResult& r) {
  const auto line = [&](const char* label, const std::string& text) {
    char head[16];
    std::snprintf(head, sizeof head, "%-12s", label);
    out << head << text << '\n';
  };
  // time_ms is cycles over the preset's clock.
  const double ghz = r.time_ms > 0 ? double(r.cycles) / (r.time_ms * 1e6) : 0;
  line("time", format("%.3f us", r.time_ms * 1e3) + " (" + std::to_string(r.cycles) + " cycles at " +
                   format("%.3g GHz", ghz) + ")");
  if (!r.verdict.empty()) line("verdict", r.verdict);
  const double achieved = metric(r, "achieved_occupancy"), theoretical = metric(r, "theoretical_occupancy");
  line("occupancy", "achieved " + format("%.2f", achieved) + ", theoretical " + format("%.2f", theoretical) +
                        " (limited by " + text_metric(r, "occupancy_limit") + "); " +
                        format("%.2f waves of blocks", metric(r, "waves")));
  // Every scheduler-cycle is in exactly one state (models/core/stall_reason.hpp).
  const struct {
    const char* metric;
    const char* label;
  } stalls[] = {{"stall_memory_dependency", "memory"}, {"stall_alu_dependency", "arithmetic"},
                {"stall_unit_busy", "a busy unit"},    {"stall_barrier", "a barrier"},
                {"stall_no_eligible", "nothing ready"}};
  double stalled = metric(r, "stall_idle");
  std::string waits;
  for (const auto& s : stalls) {
    waits += std::string(waits.empty() ? "" : ", ") + s.label + " " + percent(metric(r, s.metric));
    stalled += metric(r, s.metric);
  }
  line("schedulers", "issue in " + percent(1 - stalled) + " of their cycles; wait on " + waits + "; have no warp " +
                         percent(metric(r, "stall_idle")));
  out << "utilisation, of the preset's peak over the elapsed time:\n";
  for (const auto& [name, value] : r.metrics) {
    const std::string key = models::utilization_key(name);
    if (key.empty()) continue;
    // Pipes and shared memory the kernel never used would only add empty bars.
    const bool always = key == "issue" || key == "l1_wavefronts" || key == "l2" || key == "dram";
    if (!always && !(value > 0.0005)) continue;
    char head[24];
    std::snprintf(head, sizeof head, "  %-14s", key.c_str());
    out << head << bar(value) << ' ' << format("%5.1f%%", 100 * value) << '\n';
  }
}

const char* const kVerdictHelp = R"(
Verdict. Each run and each launch gets one limiter, with the numbers behind it (metrics
"limiter", "limiter_evidence" and "utilization" in --json; docs/limiter.md). Utilisations are of
the preset's peaks over the elapsed time, kernel start included, as Nsight Compute's
pct_of_peak_sustained_elapsed. A resource at 60% of its peak or more limits the kernel (60% is
ncu's own line between throughput- and latency-bound), the busiest one named:
  dram-bandwidth  DRAM bytes read and written, of the bus width x data rate
  l2-bandwidth    L2 sector lookups, of the slices' port rate
  l1-lsu          the LSU path through L1: wavefronts (128-byte lines), sectors, LD/ST issue
                  slots with replays
  shared-banks    shared-memory wavefronts, bank conflicts included
  issue           an execution pipe (named: fp32, fp64, int, sfu, tensor, control), or the
                  schedulers' issue slots themselves ("dispatch")
Otherwise, in this order:
  launch          the kernel's start (the preset's kernel_start_ns, before its first block) is at
                  least as long as the rest of it
  tail            schedulers without a warp a quarter of the time after the start: too few
                  blocks for one wave, or a partial last wave
  barrier         warps waiting at __syncthreads a quarter of the scheduler-cycles or more
  latency         warps waiting on results: "too few warps" when under half the SM's warp slots
                  are in use on average (the theoretical occupancy and its limiting resource
                  say why), else "too little ILP"
A run of several launches takes the limiter of the launches that took most of its time.
)";

}  // namespace warpsim::cli
