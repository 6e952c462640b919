// The metric list of CONTRACT.md and the JSON form of a run.
#include <sstream>

#include "models/simulate.hpp"
#include "sim/json.hpp"

namespace warpsim::models {

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = {
      "warp_instructions", "ipc", "achieved_occupancy", "dual_issue_fraction",
      "gld_requests", "gld_sectors", "gld_transactions", "gld_efficiency",
      "gst_requests", "gst_sectors", "gst_transactions", "gst_efficiency",
      "l1_hit_rate", "l2_hit_rate", "dram_read_bytes", "dram_write_bytes",
      "shared_bank_conflicts", "replays",
      "stall_no_eligible", "stall_alu_dependency", "stall_memory_dependency", "stall_unit_busy",
      "stall_barrier", "stall_idle", "lane_efficiency",
  };
  return names;
}

std::string to_json(const RunResult& r) {
  std::ostringstream out;
  out << "{\"arch\": " << sim::json_quote(r.arch) << ", \"kernel\": " << sim::json_quote(r.kernel) << ", \"params\": {";
  for (std::size_t i = 0; i < r.params.size(); ++i)
    out << (i ? ", " : "") << sim::json_quote(r.params[i].first) << ": " << sim::json_quote(r.params[i].second);
  out << "}, \"cycles\": " << r.cycles << ", \"time_ms\": " << sim::json_number(r.time_ms) << ", \"metrics\": {";
  for (std::size_t i = 0; i < r.metrics.size(); ++i)
    out << (i ? ", " : "") << sim::json_quote(r.metrics[i].first) << ": " << sim::json_number(r.metrics[i].second);
  out << "}, \"wall_s\": " << sim::json_number(r.wall_s);
  if (!r.warnings.empty()) {
    out << ", \"warnings\": [";
    for (std::size_t i = 0; i < r.warnings.size(); ++i) out << (i ? ", " : "") << sim::json_quote(r.warnings[i]);
    out << "]";
  }
  out << "}";
  return out.str();
}

}  // namespace warpsim::models
