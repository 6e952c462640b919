#pragma once
// The h100-limiter validation table: each measured launch's verdict against the bound Nsight
// Compute's Speed Of Light section gives it, and each utilisation against ncu's measurement of the
// same quantity (data/h100-measured/).
#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

TableBuilder h100_limiter_table();

}  // namespace warpsim::analysis
