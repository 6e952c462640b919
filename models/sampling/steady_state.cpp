#include "models/sampling/steady_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpsim::models::sampling {

bool SteadyState::steady() const {
  if (windows_.size() < std::max<std::size_t>(rule_.min_windows, 2 * std::size_t{rule_.batch})) return false;
  return drift(false) <= rule_.drift && drift(true) <= rule_.drift && 2 * rate_error() <= rule_.precision;
}

double SteadyState::drift(bool ipc) const {
  const std::size_t n = windows_.size();
  double count[2] = {0, 0}, cycles[2] = {0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const int half = i < n / 2 ? 0 : 1;
    count[half] += double(ipc ? windows_[i].instructions : windows_[i].blocks);
    cycles[half] += double(windows_[i].cycles);
  }
  if (cycles[0] <= 0 || cycles[1] <= 0 || count[1] <= 0) return INFINITY;
  return std::fabs((count[0] / cycles[0]) / (count[1] / cycles[1]) - 1);
}

double SteadyState::rate() const {
  double blocks = 0, cycles = 0;
  for (const Window& w : windows_) {
    blocks += double(w.blocks);
    cycles += double(w.cycles);
  }
  return cycles > 0 ? blocks / cycles : 0.0;
}

double SteadyState::rate_error() const {
  // Batch means, counted from the latest window back (a window left over is the oldest).
  const std::size_t batch = std::max<std::uint32_t>(1, rule_.batch), batches = windows_.size() / batch;
  if (batches < 2) return INFINITY;
  double sum = 0, sum2 = 0;
  for (std::size_t b = 0; b < batches; ++b) {
    double blocks = 0, cycles = 0;
    for (std::size_t i = windows_.size() - (b + 1) * batch; i < windows_.size() - b * batch; ++i) {
      blocks += double(windows_[i].blocks);
      cycles += double(windows_[i].cycles);
    }
    const double r = cycles > 0 ? blocks / cycles : 0.0;
    sum += r;
    sum2 += r * r;
  }
  const double mean = sum / double(batches);
  if (!(mean > 0)) return INFINITY;
  const double variance = std::max(0.0, (sum2 - sum * mean) / double(batches - 1));
  return std::sqrt(variance / double(batches)) / mean;
}

std::string SteadyState::describe() const {
  char text[240];
  if (windows_.size() < rule_.min_windows) {
    std::snprintf(text, sizeof text, "it ran %zu of the %u waves it must be watched for once its caches are warm",
                  windows_.size(), rule_.min_windows);
    return text;
  }
  std::snprintf(text, sizeof text,
                "over %zu waves with warm caches the halves' blocks per cycle differ by %.1f%% and IPC by %.1f%% "
                "(bound %.1f%%), and the mean rate is known within %.1f%% (bound %.1f%%)",
                windows_.size(), 100 * drift(false), 100 * drift(true), 100 * rule_.drift, 200 * rate_error(),
                100 * rule_.precision);
  return text;
}

}  // namespace warpsim::models::sampling
