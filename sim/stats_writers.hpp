#pragma once
// Writers for the stats registry, kept apart from the models (SST's lesson).
#include <ostream>
#include <vector>

#include "sim/stats.hpp"

namespace warpsim::sim {

// One line per counter: name, value, unit, description.
void write_stats_text(std::ostream& out, const std::vector<StatValue>& stats);
// One JSON object {"name": {"value": N, "unit": "...", "description": "..."}, ...}.
void write_stats_json(std::ostream& out, const std::vector<StatValue>& stats);

}  // namespace warpsim::sim
