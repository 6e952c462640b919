#include "sweeps/mpi_sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <stdexcept>

#include "models/simulate.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/points.hpp"
#include "sweeps/refine_order.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/result_record.hpp"
#include "sweeps/spec.hpp"

#if WARPSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace warpsim::sweeps {

bool built_with_mpi() { return WARPSIM_HAVE_MPI != 0; }

bool started_by_mpi() {
  // Open MPI's mpirun, and PMI/PMIx launchers (srun), name the world size in the environment.
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    std::int64_t n;
    if (const char* v = std::getenv(var); v && sim::parse_int(v, n) && n > 1) return true;
  }
  return false;
}

#if !WARPSIM_HAVE_MPI

SweepOutcome run_sweep_mpi(const SweepRunOptions&, const PointRunner&) {
  throw sim::InputError("mpirun", "this warpsim was built without MPI; rebuild with -DWARPSIM_MPI=ON "
                                  "(after WARPSIM_MPI=ON scripts/bootstrap) or use --shard / Slurm arrays");
}

#else

namespace {

struct MpiSession {
  MpiSession() {
    int provided = 0;
    // Only the main thread calls MPI; TBB workers never do.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
};

// Every rank's encoded results, concatenated on rank 0.
std::string gather_text(const std::string& mine, int rank, int size) {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(size), offsets(size);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  return all;
}

}  // namespace

SweepOutcome run_sweep_mpi(const SweepRunOptions& options, const PointRunner& runner) {
  MpiSession session;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Every rank parses the same spec, so a bad spec fails the same way everywhere.
  SweepSpec spec = parse_spec(options.spec);
  check_output_path(options.output, {options.spec});
  std::vector<Point> all = enumerate_points(spec);
  Shard shard{static_cast<std::size_t>(rank), static_cast<std::size_t>(size)};
  std::vector<Point> mine;
  for (const auto& p : all)
    if (shard.owns(p.index)) mine.push_back(p);

  DriverOptions d;
  d.jobs = options.jobs;
  d.journal = journal_path(options.output, ".rank" + std::to_string(rank) + "of" + std::to_string(size));
  d.sweep_fingerprint = sweep_fingerprint(spec, "mpi " + shard.text());
  d.progress = rank == 0 ? options.progress : (options.progress == ProgressMode::None ? ProgressMode::None : ProgressMode::Log);
  if (rank != 0 && options.progress == ProgressMode::Bar) d.progress = ProgressMode::None;
  d.log_interval = options.log_interval;
  d.label = "sweep " + options.spec.filename().string() + " rank " + shard.text();
  d.stop = options.stop;
  DriverOutcome outcome = run_points(mine, runner, d);

  int interrupted = outcome.interrupted ? 1 : 0, any_interrupted = 0;
  MPI_Allreduce(&interrupted, &any_interrupted, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_interrupted) {
    if (rank == 0)
      std::fprintf(stderr, "interrupted: finished points are saved in %s.journal.rank*; run the same command to resume\n",
                   options.output.c_str());
    return SweepOutcome::Interrupted;
  }

  std::string encoded;
  for (const auto& r : outcome.results) encoded += encode_result(r);
  std::string everything = gather_text(encoded, rank, size);
  // Rank 0's word to every rank, in one broadcast (a rank 0 that fails to write still sends it):
  // whether the file was written, and the outcome every rank exits with.
  int verdict[2] = {1, static_cast<int>(SweepOutcome::Complete)};
  int& write_ok = verdict[0];
  int& outcome_code = verdict[1];
  if (rank == 0) {
    std::vector<PointResult> results;
    std::size_t start = 0;
    const std::size_t metric_count = models::metric_names().size();
    while (start < everything.size()) {
      auto end = everything.find('\n', start);
      auto r = decode_result(everything.substr(start, end - start), metric_count);
      if (!r) throw std::runtime_error("MPI: a result record arrived damaged");
      results.push_back(std::move(*r));
      start = end + 1;
    }
    std::sort(results.begin(), results.end(), [](const PointResult& a, const PointResult& b) { return a.index < b.index; });
    try {
      // Sampled points the sampling cannot order are simulated again here, on rank 0's cores alone:
      // they are few, and the other ranks hold no part of the decision (refine_order.hpp).
      DriverOptions full = d;
      full.journal = journal_path(options.output, ".full");
      full.sweep_fingerprint = sweep_fingerprint(spec, "mpi, refined in full");
      full.label = "sweep " + options.spec.filename().string() + " (points simulated again in full)";
      if (refine_order(all, results, runner, full).interrupted) {
        std::fprintf(stderr, "interrupted: finished points are saved in %s.journal.rank* and %s; run the same command "
                     "to resume\n", options.output.c_str(), full.journal->c_str());
        write_ok = 0;  // every rank keeps its journal
        outcome_code = static_cast<int>(SweepOutcome::Interrupted);
      } else {
        write_result_file(options.output, spec, all, results, ResultFileInfo{options.command_line, {}, std::nullopt});
        std::filesystem::remove(*full.journal);
        std::fprintf(stderr, "results: %s (%d ranks)\n", options.output.c_str(), size);
        const auto failed = every_point_failed(results);
        if (failed) std::fprintf(stderr, "%s: %s\n", options.spec.c_str(), failed->summary().c_str());
        outcome_code = static_cast<int>(outcome_of(failed));
      }
    } catch (...) {
      write_ok = 0;
      MPI_Bcast(verdict, 2, MPI_INT, 0, MPI_COMM_WORLD);
      throw;
    }
  }
  MPI_Bcast(verdict, 2, MPI_INT, 0, MPI_COMM_WORLD);
  // Journals go only once the file that replaces them exists.
  if (write_ok) std::filesystem::remove(*d.journal);
  return static_cast<SweepOutcome>(outcome_code);
}

#endif

}  // namespace warpsim::sweeps
