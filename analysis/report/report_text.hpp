#pragma once
// `warpsim report`: the SweepReport as tables a person reads on a terminal.
#include <ostream>

#include "analysis/report/sweep_report.hpp"

namespace warpsim::analysis {

void print_report_text(std::ostream& out, const SweepReport& report);

}  // namespace warpsim::analysis
