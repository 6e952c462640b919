#pragma once
// One simulation from request to result: the entry point the CLI, sweeps, validation and
// benchmarks share. Each call is self-contained (its own engine, RNG, stats), so sweeps may run
// many at once on different threads.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::models {

struct RunRequest {
  std::string arch;                          // preset name
  std::vector<std::string> arch_overrides;   // "key=value" (--set)
  std::string kernel;                        // library kernel name, or empty when trace is set
  std::vector<std::string> kernel_params;    // "key=value" (-p)
  std::string trace;                         // kernelslist.g, .traceg(.xz) or .wtrace; or empty
  std::uint64_t seed = 1;
  // Ticks every SM cycle by cycle rather than a window at a time (models/core/gpu.hpp): slower,
  // the same results; for checking the windows.
  bool lockstep = false;
};

struct RunResult {
  std::string arch;
  std::string kernel;  // kernel name or trace path
  std::vector<std::pair<std::string, std::string>> params;  // resolved kernel parameters, declaration order
  std::uint64_t cycles = 0;
  double time_ms = 0;
  std::vector<std::pair<std::string, double>> metrics;  // in metric_names() order
  double wall_s = 0;
  std::uint64_t warp_instructions = 0;
  std::vector<std::string> warnings;  // e.g. unknown opcodes mapped to a default class
};

// The metrics every run reports, in a fixed order (CONTRACT.md).
const std::vector<std::string>& metric_names();

// Throws sim::InputError for bad requests and sim::DeadlockError if the run cannot finish.
RunResult simulate(const RunRequest& request);

// {"arch": ..., "kernel": ..., "params": {...}, "cycles": N, "time_ms": X, "metrics": {...}, "wall_s": X}
std::string to_json(const RunResult& result);

}  // namespace warpsim::models
