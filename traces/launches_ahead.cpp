#include "traces/launches_ahead.hpp"

#include <algorithm>

namespace warpsim::traces {

void LaunchesAhead::open_from(std::size_t step) {
  auto& steps = workload_.steps;
  std::size_t open = 0;
  for (std::size_t s = step; s < steps.size() && open < kOpenAhead; ++s) {
    if (steps[s].kind != WorkloadStep::Kind::Launch) continue;
    ++open;
    if (s < opened_up_to_) continue;  // open now, or taken already
    open_.emplace(s, steps[s].launch.open());
    opened_up_to_ = s + 1;
  }
}

std::unique_ptr<KernelSource> LaunchesAhead::take(std::size_t step) {
  auto it = open_.find(step);
  if (it == open_.end()) {
    opened_up_to_ = std::max(opened_up_to_, step + 1);
    return workload_.steps[step].launch.open();
  }
  std::unique_ptr<KernelSource> source = std::move(it->second);
  open_.erase(it);
  return source;
}

}  // namespace warpsim::traces
