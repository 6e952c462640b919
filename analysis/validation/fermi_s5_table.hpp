#pragma once
// The fermi-s5 validation table: SPEC S5's Tesla M2070 efficiencies and time ratios (seeds/004).
#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

TableBuilder fermi_s5_table();

}  // namespace warpsim::analysis
