// The JSON form of a run (CONTRACT.md).
#include <sstream>

#include "models/simulate.hpp"
#include "sim/json.hpp"
#include "sim/stats_writers.hpp"

namespace warpsim::models {
namespace {

// The metrics, with the utilisations gathered under "utilization" where the first of them stands
// (CONTRACT.md: `utilization` {unit: fraction of peak}), then the text metrics (limiter ...).
void put_metrics(std::ostream& out, const std::vector<std::pair<std::string, double>>& metrics,
                 const std::vector<std::pair<std::string, std::string>>& texts) {
  out << '{';
  const char* sep = "";
  bool utilization_done = false;
  for (const auto& [name, value] : metrics) {
    if (!utilization_key(name).empty()) {
      if (utilization_done) continue;
      utilization_done = true;
      out << sep << "\"utilization\": {";
      const char* inner = "";
      for (const auto& [n, v] : metrics)
        if (const std::string key = utilization_key(n); !key.empty()) {
          out << inner << sim::json_quote(key) << ": " << sim::json_number(v);
          inner = ", ";
        }
      out << '}';
    } else {
      out << sep << sim::json_quote(name) << ": " << sim::json_number(value);
    }
    sep = ", ";
  }
  for (const auto& [name, value] : texts) {
    out << sep << sim::json_quote(name) << ": " << sim::json_quote(value);
    sep = ", ";
  }
  out << '}';
}

void put_dim(std::ostream& out, const std::array<std::uint32_t, 3>& d) {
  out << '[' << d[0] << ", " << d[1] << ", " << d[2] << ']';
}

// "sampled", "detail_fraction", "time_error_pct", and "extrapolated" (the metrics that are) or
// "sample_fallback" (why nothing was skipped): only when sampling was asked.
void put_sampling(std::ostream& out, const SamplingSummary& s) {
  if (!s.asked) return;
  out << ", \"sampled\": " << (s.sampled ? "true" : "false")
      << ", \"detail_fraction\": " << sim::json_number(s.detail_fraction)
      << ", \"time_error_pct\": " << sim::json_number(s.time_error_pct);
  if (!s.sampled) {
    out << ", \"sample_fallback\": " << sim::json_quote(s.fallback);
    return;
  }
  out << ", \"extrapolated\": [\"cycles\", \"time_ms\"";
  for (const auto& name : metric_names())
    if (!exact_when_sampled(name)) out << ", " << sim::json_quote(name);
  out << ']';
}

void put_launch(std::ostream& out, const LaunchResult& k) {
  out << "{\"launch\": " << k.launch << ", \"name\": " << sim::json_quote(k.name) << ", \"grid\": ";
  put_dim(out, k.grid);
  out << ", \"block\": ";
  put_dim(out, k.block);
  out << ", \"start_cycle\": " << k.start_cycle << ", \"cycles\": " << k.cycles
      << ", \"time_ms\": " << sim::json_number(k.time_ms);
  if (k.overlapped) out << ", \"overlapped\": true";
  put_sampling(out, k.sampling);
  out << ", \"metrics\": ";
  put_metrics(out, k.metrics, k.text_metrics);
  out << ", \"verdict\": " << sim::json_quote(k.verdict) << '}';
}

}  // namespace

std::string to_json(const RunResult& r) {
  std::ostringstream out;
  out << "{\"arch\": " << sim::json_quote(r.arch) << ", \"kernel\": " << sim::json_quote(r.kernel) << ", \"params\": {";
  for (std::size_t i = 0; i < r.params.size(); ++i)
    out << (i ? ", " : "") << sim::json_quote(r.params[i].first) << ": " << sim::json_quote(r.params[i].second);
  out << "}, \"cycles\": " << r.cycles << ", \"time_ms\": " << sim::json_number(r.time_ms) << ", \"metrics\": ";
  put_metrics(out, r.metrics, r.text_metrics);
  if (!r.verdict.empty()) out << ", \"verdict\": " << sim::json_quote(r.verdict);
  out << ", \"wall_s\": " << sim::json_number(r.wall_s);
  put_sampling(out, r.sampling);
  if (!r.stats.empty()) {
    out << ", \"stats\": ";
    sim::write_stats_json(out, r.stats);
  }
  if (r.ncu) out << ", \"measurement\": {\"mode\": \"ncu\", \"cache_control\": \"" << (r.ncu_flush_caches ? "all" : "none") << "\"}";
  if (!r.kernels.empty()) {
    out << ", \"kernels\": [";
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
      out << (i ? ", " : "");
      put_launch(out, r.kernels[i]);
    }
    out << ']';
  }
  if (!r.warnings.empty()) {
    out << ", \"warnings\": [";
    for (std::size_t i = 0; i < r.warnings.size(); ++i) out << (i ? ", " : "") << sim::json_quote(r.warnings[i]);
    out << "]";
  }
  out << "}";
  return out.str();
}

}  // namespace warpsim::models
