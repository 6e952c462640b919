#include "sim/stats_writers.hpp"

#include "sim/json.hpp"

namespace warpsim::sim {

void write_stats_text(std::ostream& out, const std::vector<StatValue>& stats) {
  for (const auto& e : stats) out << e.name << ' ' << e.value << ' ' << e.unit << "  # " << e.description << '\n';
}

void write_stats_json(std::ostream& out, const std::vector<StatValue>& stats) {
  out << '{';
  bool first = true;
  for (const auto& e : stats) {
    if (!first) out << ", ";
    first = false;
    out << json_quote(e.name) << ": {\"value\": " << e.value << ", \"unit\": " << json_quote(e.unit)
        << ", \"description\": " << json_quote(e.description) << '}';
  }
  out << '}';
}

}  // namespace warpsim::sim
