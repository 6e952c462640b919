#pragma once
// What the sweep keeps of one point: its status and numbers, nothing that depends on which
// thread, rank or shard ran it (except wall_s, the one timing column).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/simulate.hpp"

namespace warpsim::sweeps {

// Point status codes, stored in the `status` column.
enum PointStatus : int {
  kPointOk = 0,
  kPointInputError = 1,  // the simulator refused the point (e.g. block larger than the architecture allows)
  kPointDeadlock = 2,    // the run stopped making progress
  kPointInternalError = 3,
};

struct PointResult {
  std::size_t index = 0;
  int status = kPointOk;
  std::string message;        // the reason when status != 0; warnings joined by "; " otherwise
  std::int64_t cycles = 0;
  double time_ms = 0;
  std::vector<double> metrics;  // models::metric_names() order; NaN where a metric is missing
  double wall_s = 0;
  // Every kernel parameter as the simulator resolved it ("n=1048576 block=512 grid=512 ..."),
  // derived ones included: the point's full configuration, beside the swept columns.
  std::string resolved_params;
  std::vector<std::string> texts;  // models::text_metric_names() order ("limiter" ...); "" where missing
  // Sampled simulation (`sample = on`): 1 when part of the point was credited instead of
  // simulated in detail, 0 when it all ran in detail (the message says why); -1 when not asked.
  int sampled = -1;
  double detail_fraction = 1, time_error_pct = 0;
};

// A sweep none of whose points succeeded: its results are kept (the messages say why), but a
// script that goes on to plot them must be told. `refused` when every failure is a refused
// input (the sweep exits 2 like any input error); a deadlock or internal error anywhere makes it
// an internal failure (exit 3). `first` is the failure of the lowest point index.
struct EveryPointFailed {
  bool refused = true;
  std::size_t index = 0;
  std::string first;
  std::string summary() const;  // "every point failed; point 0: <message>"
};
// nullopt when some point succeeded, or there are no results.
std::optional<EveryPointFailed> every_point_failed(const std::vector<PointResult>& results);

// Runs one point. Not per-event, so std::function costs nothing that matters; tests pass a
// deterministic fake, the CLI passes models::simulate.
using PointRunner = std::function<models::RunResult(const models::RunRequest&)>;

// Calls the runner and turns every outcome, exceptions included, into a PointResult.
PointResult run_point(std::size_t index, const models::RunRequest& request, const PointRunner& runner);

}  // namespace warpsim::sweeps
