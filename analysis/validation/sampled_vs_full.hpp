#pragma once
// Sampled simulation checked against full simulation (docs/sampling.md): one request run both
// ways, its time error, and the counts sampling promises to keep exact that do not match. The
// sampling test and bench/bench_sampling share it.
#include <string>
#include <vector>

#include "models/simulate.hpp"

namespace warpsim::analysis {

struct SampledVersusFull {
  std::string label;
  models::RunResult full, sampled;
  double full_cpu_s = 0, sampled_cpu_s = 0;  // host CPU time of each run

  // (sampled cycles / full cycles - 1) x 100.
  double time_error_pct() const;
  // "metric" (totals) or "launch N metric" for every count exact_when_sampled() names whose
  // sampled value differs from the full run's, and "launch count" if the launches differ.
  std::vector<std::string> exact_mismatches() const;
};

// Runs `request` in full and with sampling (request.sample is set for the second run only).
SampledVersusFull compare_sampled(std::string label, models::RunRequest request);

// The table sampling is validated on: every library kernel on `arch` at chip-filling sizes,
// many waves each (a wave is as many blocks as the GPU holds at once); `scale` divides the
// element counts and grids, for a test that must run in seconds.
std::vector<models::RunRequest> library_table(const std::string& arch, int scale = 1);
// The corpus traces: the H100 applications (calibration half) as the application runs them and
// as ncu measures them, and the Accel-Sim traces of ../shared/traces where present.
std::vector<models::RunRequest> trace_table();
// "arch kernel p=v ..." or "arch program [--ncu]".
std::string table_label(const models::RunRequest& request);

}  // namespace warpsim::analysis
