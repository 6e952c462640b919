#pragma once
// The point runner the CLI and the benchmark use: models::simulate, or the synthetic stand-in
// when the environment asks for it (WARPSIM_SWEEP_RUNNER=synthetic[:MS], MS = sleep per point).
#include "sweeps/point_result.hpp"

namespace warpsim::sweeps {

PointRunner default_point_runner();

}  // namespace warpsim::sweeps
