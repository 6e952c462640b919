#pragma once
// `mpirun -np N warpsim sweep SPEC -o OUT`: rank r runs shard r/N with all its cores through
// TBB and journals to OUT.journal.rank<r>of<N>; rank 0 gathers every result and writes the one
// file, identical to a single-process run. Built only with -DWARPSIM_MPI=ON.
#include "sweeps/sweep_run.hpp"

namespace warpsim::sweeps {

// True when this process was started by mpirun/srun with more than one rank and the build has MPI.
bool started_by_mpi();
bool built_with_mpi();
// Call on every rank; MPI is initialised and finalised inside.
SweepOutcome run_sweep_mpi(const SweepRunOptions& options, const PointRunner& runner);

}  // namespace warpsim::sweeps
