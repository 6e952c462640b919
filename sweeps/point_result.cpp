#include "sweeps/point_result.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "sim/errors.hpp"

namespace warpsim::sweeps {

PointResult run_point(std::size_t index, const models::RunRequest& request, const PointRunner& runner) {
  const auto& names = models::metric_names();
  PointResult r;
  r.index = index;
  r.metrics.assign(names.size(), std::numeric_limits<double>::quiet_NaN());
  const auto& text_names = models::text_metric_names();
  r.texts.assign(text_names.size(), std::string());
  r.time_ms = std::numeric_limits<double>::quiet_NaN();
  auto start = std::chrono::steady_clock::now();
  try {
    models::RunResult run = runner(request);
    r.cycles = static_cast<std::int64_t>(run.cycles);
    r.time_ms = run.time_ms;
    // By name, not position: a runner that reports fewer or more metrics still lands in the right columns.
    for (const auto& [name, value] : run.metrics)
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) r.metrics[i] = value;
    for (const auto& [name, value] : run.text_metrics)
      for (std::size_t i = 0; i < text_names.size(); ++i)
        if (text_names[i] == name) r.texts[i] = value;
    for (const auto& w : run.warnings) {
      if (!r.message.empty()) r.message += "; ";
      r.message += w;
    }
    if (run.sampling.asked) {
      r.sampled = run.sampling.sampled ? 1 : 0;
      r.detail_fraction = run.sampling.detail_fraction;
      r.time_error_pct = run.sampling.time_error_pct;
    }
    for (const auto& [key, value] : run.params) {
      if (!r.resolved_params.empty()) r.resolved_params += ' ';
      r.resolved_params += key;
      r.resolved_params += '=';
      r.resolved_params += value;
    }
  } catch (const sim::InputError& e) {
    r.status = kPointInputError;
    r.message = e.what();
  } catch (const sim::DeadlockError& e) {
    r.status = kPointDeadlock;
    r.message = e.what();
  } catch (const std::exception& e) {
    r.status = kPointInternalError;
    r.message = std::string("internal error: ") + e.what();
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::optional<EveryPointFailed> every_point_failed(const std::vector<PointResult>& results) {
  if (results.empty()) return std::nullopt;
  EveryPointFailed f;
  f.index = results.front().index;
  for (const auto& r : results) {
    if (r.status == kPointOk) return std::nullopt;
    if (r.status != kPointInputError) f.refused = false;
    if (r.index <= f.index) {
      f.index = r.index;
      f.first = r.message;
    }
  }
  return f;
}

std::string EveryPointFailed::summary() const {
  return "every point failed; point " + std::to_string(index) + ": " + first;
}

}  // namespace warpsim::sweeps
