#include "analysis/report/report_json.hpp"

#include "sim/json.hpp"

namespace warpsim::analysis {
namespace {

using sim::json_number;
using sim::json_quote;

std::string parameters_json(const std::vector<ParameterValue>& parameters) {
  std::string out = "{";
  for (std::size_t i = 0; i < parameters.size(); ++i)
    out += (i ? ", " : "") + json_quote(parameters[i].name) + ": " + parameters[i].json;
  return out + "}";
}

std::string point_json(const std::optional<PointSummary>& p) {
  if (!p) return "null";
  std::string out = "{\"point\": " + std::to_string(p->point) + ", \"params\": " + parameters_json(p->parameters) +
                    ", \"time_ms\": " + json_number(p->time_ms) + ", \"cycles\": " + std::to_string(p->cycles) +
                    ", \"metrics\": {";
  for (std::size_t i = 0; i < p->metrics.size(); ++i)
    out += (i ? ", " : "") + json_quote(p->metrics[i].first) + ": " + json_number(p->metrics[i].second);
  return out + "}, \"limiter\": " + (p->limiter.empty() ? std::string("null") : json_quote(p->limiter)) + "}";
}

std::string limiters_json(const AxisLimiters& a) {
  std::string out = "{\"axis\": " + json_quote(a.axis) + ", \"spans\": [";
  for (std::size_t i = 0; i < a.spans.size(); ++i) {
    const LimiterSpan& s = a.spans[i];
    out += std::string(i ? ", " : "") + "{\"from\": " + s.from_json + ", \"to\": " + s.to_json +
           ", \"points\": " + std::to_string(s.points) + ", \"limiter\": " + json_quote(s.limiter) +
           ", \"evidence\": " + json_quote(s.evidence) + "}";
  }
  return out + "]}";
}

std::string value_time_json(const std::optional<AxisValueTime>& v) {
  if (!v) return "null";
  return "{\"value\": " + v->json + ", \"time_ms\": " + json_number(v->time_ms) + "}";
}

std::string sensitivity_json(const AxisSensitivity& s) {
  return "{\"axis\": " + json_quote(s.axis) + ", \"points\": " + std::to_string(s.points) +
         ", \"ok\": " + std::to_string(s.ok) + ", \"fastest\": " + value_time_json(s.fastest) +
         ", \"slowest\": " + value_time_json(s.slowest) + ", \"ratio\": " + json_number(s.ratio) +
         ", \"spread_ms\": " + json_number(s.spread_ms) + "}";
}

std::string failure_json(const std::optional<FailureSample>& f) {
  if (!f) return "null";
  return "{\"point\": " + std::to_string(f->point) + ", \"status\": " + std::to_string(f->status) +
         ", \"params\": " + parameters_json(f->parameters) + ", \"message\": " + json_quote(f->message) + "}";
}

std::string group_json(const GroupReport& g) {
  std::string axes = "[";
  for (std::size_t i = 0; i < g.axes.size(); ++i) axes += (i ? ", " : "") + json_quote(g.axes[i]);
  axes += "]";
  std::string sensitivity = "[";
  for (std::size_t i = 0; i < g.sensitivity.size(); ++i) sensitivity += (i ? ", " : "") + sensitivity_json(g.sensitivity[i]);
  sensitivity += "]";
  std::string limiters = "[";
  for (std::size_t i = 0; i < g.limiters.size(); ++i) limiters += (i ? ", " : "") + limiters_json(g.limiters[i]);
  limiters += "]";
  return "{\"study\": " + json_quote(g.study) + ", \"arch\": " + json_quote(g.arch) +
         ", \"kernel\": " + json_quote(g.kernel) + ", \"axes\": " + axes + ", \"points\": " + std::to_string(g.points) +
         ", \"ok\": " + std::to_string(g.ok) + ", \"failed\": " + std::to_string(g.failed) +
         ", \"first_failure\": " + failure_json(g.first_failure) + ", \"best\": " + point_json(g.best) +
         ", \"worst\": " + point_json(g.worst) + ", \"sensitivity\": " + sensitivity + ", \"limiters\": " + limiters + "}";
}

}  // namespace

std::string report_json(const SweepReport& r) {
  std::string out = "{\"file\": " + json_quote(r.file) + ", \"schema\": " + json_quote(r.schema) +
                    ", \"warpsim_version\": " + json_quote(r.warpsim_version) +
                    ", \"git_commit\": " + json_quote(r.git_commit) + ", \"created_utc\": " + json_quote(r.created_utc) +
                    ", \"description\": " + json_quote(r.description) +
                    ", \"shard\": " + (r.shard.empty() ? std::string("null") : json_quote(r.shard)) +
                    ", \"total_points\": " + std::to_string(r.total_points) + ", \"points\": " + std::to_string(r.points) +
                    ", \"ok\": " + std::to_string(r.ok) + ", \"failed\": " + std::to_string(r.failed) + ", \"groups\": [";
  for (std::size_t i = 0; i < r.groups.size(); ++i) out += (i ? ", " : "") + group_json(r.groups[i]);
  return out + "]}";
}

}  // namespace warpsim::analysis
