#pragma once
// Sampled points whose order the sampling cannot tell (`sample = on`, docs/sampling.md). A
// sampled point's time is good to its stated error (time_error_pct); two points of one study
// whose times lie closer than their errors allow may come the other way round from the full
// simulation's. The sweep runs each such point again in full, so that every study's points come
// in the order the full simulation gives them: a sampled point left as it is lies further from
// every other point than the errors of both. Used where a whole sweep's results meet: run_sweep,
// `sweep merge` and rank 0 under MPI (a shard alone cannot see its neighbours' points).
#include <cstddef>
#include <vector>

#include "sweeps/driver.hpp"
#include "sweeps/point_result.hpp"
#include "sweeps/points.hpp"

namespace warpsim::sweeps {

// The indices, ascending, of the sampled points (sampled == 1) whose interval time_ms +-
// time_error_pct meets another successful point's of the same study. `results` holds every
// point of `points` (any order).
std::vector<std::size_t> unordered_points(const std::vector<Point>& points, const std::vector<PointResult>& results);

struct RefineOutcome {
  std::size_t refined = 0;   // points simulated again in full
  bool interrupted = false;  // stopped before all of them finished (the journal keeps those that did)
};

// Runs unordered_points() again with sampling off (through run_points, so `options.journal`
// keeps them across an interruption) and puts their results in place of the sampled ones,
// marked sampled = 0 with the reason in their message.
RefineOutcome refine_order(const std::vector<Point>& points, std::vector<PointResult>& results,
                           const PointRunner& runner, const DriverOptions& options);

}  // namespace warpsim::sweeps
