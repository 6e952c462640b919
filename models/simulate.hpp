#pragma once
// One simulation from request to result: the entry point the CLI, sweeps, validation and
// benchmarks share. Each call is self-contained (its own engine, RNG, stats), so sweeps may run
// many at once on different threads.
#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/stats.hpp"

namespace warpsim::models {

struct RunRequest {
  std::string arch;                          // preset name
  std::vector<std::string> arch_overrides;   // "key=value" (--set)
  std::string kernel;                        // library kernel name, or empty when trace is set
  std::vector<std::string> kernel_params;    // "key=value" (-p)
  std::string trace;                         // kernelslist.g, .traceg(.xz) or .wtrace; or empty
  std::uint64_t seed = 1;
  bool stats = false;  // keep every counter the models registered (run --stats)
  // Ticks every SM cycle by cycle rather than a window at a time (models/core/gpu.hpp): slower,
  // the same results; for checking the windows.
  bool lockstep = false;
  // Host threads that tick the SMs (run -j): 1 ticks them on the calling thread alone; more tick
  // the SMs of each window at once (models/core/gpu.hpp). The results are the same for any count.
  int threads = 1;
  // The other threads join once the run has taken this long on the calling thread alone (run -j
  // 0 and sweeps: a short run is over before threads pay for their start and for keeping in step
  // with every window); 0: from the start (an explicit -j N). The results are the same either way.
  std::chrono::milliseconds threads_join_after{0};
  // --launches: which launches to simulate, by 1-based position in the workload's launch order
  // ("3,5-9"); empty: all. Copies are all kept.
  std::string launches{};
  // --ncu: measure as Nsight Compute does: each launch waits until the GPU is idle and is timed
  // from its own start; the totals are the launches' sums. Otherwise the application's view:
  // launches of a stream follow each other, streams overlap, caches stay warm across launches.
  bool ncu = false;
  // With ncu, --cache-control all (ncu's default): before each launch every cache is written
  // back and invalidated, outside the launch's counters and time. false: none, caches stay warm.
  bool ncu_flush_caches = true;
  // --timeline: write every warp's start and exit here (models/core/warp_timeline.hpp); empty: none.
  std::string timeline{};
  // --sample: sampled simulation (models/sampling/sampler.hpp, docs/sampling.md).
  bool sample = false;
};

// What sampled simulation did to a run or a launch; `asked` false when it was not asked for.
struct SamplingSummary {
  bool asked = false;
  bool sampled = false;        // some blocks were not simulated in detail, and were credited
  double detail_fraction = 1;  // warp instructions simulated in detail, of all
  double time_error_pct = 0;   // the estimated error of time_ms, in % of it
  std::string fallback;        // why it was simulated in full, when nothing was skipped
};

// One launch of a run (RunResult::kernels).
struct LaunchResult {
  std::uint32_t launch = 0;  // 1-based position in the workload's launch order (kernelslist.g)
  std::string name;          // the kernel's name
  std::array<std::uint32_t, 3> grid{}, block{};
  std::uint64_t start_cycle = 0;  // when it started, on the run's clock
  std::uint64_t cycles = 0;       // from its start to its end
  double time_ms = 0;
  // Whether another launch (another stream) was on the GPU at some time during it. Its counts
  // are still its own; its cycle-based metrics (achieved_occupancy, stall_*) are then NaN.
  bool overlapped = false;
  std::vector<std::pair<std::string, double>> metrics;  // in metric_names() order
  std::vector<std::pair<std::string, std::string>> text_metrics;  // in text_metric_names() order
  std::string verdict;  // "<limiter>: <why, with its numbers>" (models/bound/limiter.hpp)
  SamplingSummary sampling;
};

struct RunResult {
  std::string arch;
  std::string kernel;  // kernel name or trace path
  std::vector<std::pair<std::string, std::string>> params;  // resolved kernel parameters, declaration order
  std::uint64_t cycles = 0;
  double time_ms = 0;
  std::vector<std::pair<std::string, double>> metrics;  // in metric_names() order
  std::vector<std::pair<std::string, std::string>> text_metrics;  // in text_metric_names() order
  std::string verdict;  // "<limiter>: <why, with its numbers>"; several launches: see run_bound
  double wall_s = 0;
  std::uint64_t warp_instructions = 0;
  std::vector<std::string> warnings;  // e.g. unknown opcodes mapped to a default class
  bool ncu = false, ncu_flush_caches = false;  // as requested
  std::vector<LaunchResult> kernels;  // every launch simulated, in order (trace runs)
  SamplingSummary sampling;
  // With RunRequest::stats: every counter the models registered in the stats registry, read at
  // the end of the run (raw counts; `metrics` are derived from the models' own totals).
  std::vector<sim::StatValue> stats;
};

// The metrics every run reports, in a fixed order (CONTRACT.md).
const std::vector<std::string>& metric_names();
// Those whose values are words: "limiter" (CONTRACT.md), "limiter_evidence" (its numbers in a
// few words), "occupancy_limit" (the resource that caps theoretical occupancy).
const std::vector<std::string>& text_metric_names();
// "issue" for "utilization_issue": the metrics run --json nests under "utilization"; "" otherwise.
std::string utilization_key(const std::string& metric);
// Whether a sampled run's value of metric `name` follows from the instruction streams alone and
// is therefore exact (instructions, requests, sectors, transactions, efficiencies, bank
// conflicts, replays, lane efficiency); the others, and cycles and time, are extrapolated.
bool exact_when_sampled(const std::string& name);

// Throws sim::InputError for bad requests and sim::DeadlockError if the run cannot finish.
RunResult simulate(const RunRequest& request);

// {"arch": ..., "kernel": ..., "params": {...}, "cycles": N, "time_ms": X, "metrics": {...}, "wall_s": X}
// and for trace runs "kernels": [{"launch": N, "name": ..., "grid": [x, y, z], "block": [x, y, z],
// "start_cycle": N, "cycles": N, "time_ms": X, "metrics": {...}}, ...] (CONTRACT.md).
std::string to_json(const RunResult& result);

}  // namespace warpsim::models
