#pragma once
// The parallel sweep driver: oneTBB workers run points, each a self-contained simulation, and
// hand each result to one collector thread, which owns the journal (append, fsync in batches)
// and the progress display. Results depend only on the points and the runner -- never on -j,
// scheduling or resumption -- because each point is computed alone from its own request and
// the output is ordered by point index, not by finishing time.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweeps/point_result.hpp"
#include "sweeps/points.hpp"
#include "sweeps/progress.hpp"

namespace warpsim::sweeps {

struct DriverOptions {
  int jobs = 0;  // worker threads; 0: all cores (or SLURM_CPUS_PER_TASK, see default_jobs())
  std::optional<std::filesystem::path> journal;  // none: nothing is journaled (tests, benchmarks)
  std::uint64_t sweep_fingerprint = 0;           // identifies the sweep in the journal header
  ProgressMode progress = ProgressMode::None;
  std::chrono::seconds log_interval{30};
  std::string label = "sweep";
  const std::atomic<bool>* stop = nullptr;  // set by SIGINT/SIGTERM: no new points start
  std::size_t sync_every = 64;              // fsync after this many records ...
  std::chrono::milliseconds sync_interval{2000};  // ... or this long, whichever comes first
};

struct DriverOutcome {
  std::vector<PointResult> results;  // every finished point of the selection, by index
  std::size_t resumed = 0;           // taken from the journal
  std::size_t ran = 0;               // computed by this call
  std::size_t failed = 0;            // status != 0, among results
  bool interrupted = false;          // stopped before every point finished
};

// Runs `points` (any subset of a sweep, e.g. one shard) with `runner`.
DriverOutcome run_points(const std::vector<Point>& points, const PointRunner& runner, const DriverOptions& options);

// SLURM_CPUS_PER_TASK when set (inside a Slurm job), else every core of the machine.
int default_jobs();

}  // namespace warpsim::sweeps
