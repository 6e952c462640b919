#pragma once
// `warpsim report --json`: the SweepReport as one JSON object, for scripts. NaN becomes null.
#include <string>

#include "analysis/report/sweep_report.hpp"

namespace warpsim::analysis {

std::string report_json(const SweepReport& report);

}  // namespace warpsim::analysis
