#pragma once
// A stand-in for models::simulate that computes metrics from the request alone (a hash of its
// fields), so the sweep machinery -- enumeration, parallel determinism, journal, resume, shards,
// merge, MPI, Slurm -- is tested in seconds and independently of the GPU model. Like the real
// simulator it refuses a block above sm.max_threads_per_block (1024, or an override) with an
// InputError, so failed points are exercised too.
// The CLI uses it only when WARPSIM_SWEEP_RUNNER=synthetic (tests set it).
#include <chrono>

#include "models/simulate.hpp"

namespace warpsim::sweeps {

// `delay` is slept per point so tests can interrupt a sweep mid-run.
models::RunResult synthetic_simulate(const models::RunRequest& request,
                                     std::chrono::milliseconds delay = std::chrono::milliseconds(0));

}  // namespace warpsim::sweeps
