#include "sim/stats_writers.hpp"

#include "sim/json.hpp"

namespace warpsim::sim {

void write_stats_text(std::ostream& out, const StatsRegistry& stats) {
  for (const auto& e : stats.entries())
    out << e.name << ' ' << *e.counter << ' ' << e.unit << "  # " << e.description << '\n';
}

void write_stats_json(std::ostream& out, const StatsRegistry& stats) {
  out << '{';
  bool first = true;
  for (const auto& e : stats.entries()) {
    if (!first) out << ", ";
    first = false;
    out << json_quote(e.name) << ": {\"value\": " << *e.counter << ", \"unit\": " << json_quote(e.unit)
        << ", \"description\": " << json_quote(e.description) << '}';
  }
  out << '}';
}

}  // namespace warpsim::sim
