#pragma once
// `warpsim sweep slurm SPEC`: a submit script for a Slurm cluster. Run with bash, it submits an
// array job (one shard per task; each task finds its shard in SLURM_ARRAY_TASK_ID and uses
// SLURM_CPUS_PER_TASK threads) and a merge job that starts only when every task succeeded
// (--dependency=afterok). A task that is killed and requeued resumes from its journal.
#include <filesystem>
#include <string>

namespace warpsim::sweeps {

struct SlurmOptions {
  std::filesystem::path warpsim;  // absolute path of the binary the jobs run
  std::filesystem::path spec;
  std::filesystem::path output;   // the merged result file
  std::size_t tasks = 4;
  int cpus_per_task = 4;
  std::string time_limit = "01:00:00";
  std::string partition;  // empty: the cluster's default
  std::string job_name;   // empty: warpsim-<spec stem>
  std::size_t points = 0; // for the comment at the top
  // Some study samples: the merge job may simulate points again in full (refine_order.hpp), so it
  // gets a task's CPUs; otherwise one.
  bool samples = false;
};

std::string slurm_submit_script(const SlurmOptions& options);

}  // namespace warpsim::sweeps
