#pragma once
// What each metric of a run counts and which Nsight Compute metric it is compared with: the one
// table that `warpsim run --metrics` prints and that documentation cites (CONTRACT.md).
#include <vector>

namespace warpsim::models {

struct MetricInfo {
  const char* name;    // as in run --json and sweep results
  const char* ncu;     // the Nsight Compute metric it corresponds to (or the nvprof one, or "-" and why not)
  const char* counts;  // what the simulator counts
  const char* unit;
};

// In metric_names() order.
const std::vector<MetricInfo>& metric_infos();

}  // namespace warpsim::models
