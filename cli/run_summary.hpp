#pragma once
// What `warpsim run` prints on a terminal by default: the time, the verdict as one sentence with
// its numbers (models/bound/limiter.hpp), occupancy beside its theoretical limit, where the
// schedulers' cycles went, and a bar per busy resource.
#include <ostream>

#include "models/simulate.hpp"

namespace warpsim::cli {

void print_run_summary(std::ostream& out, const models::RunResult& r);

// run --help's explanation of each verdict.
extern const char* const kVerdictHelp;

}  // namespace warpsim::cli
