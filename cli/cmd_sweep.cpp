// warpsim sweep SPEC | sweep merge OUT SHARD... | sweep slurm SPEC: wiring only; the sweep
// machinery lives in sweeps/.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/options.hpp"
#include "sim/errors.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/merge.hpp"
#include "sweeps/mpi_sweep.hpp"
#include "sweeps/points.hpp"
#include "sweeps/simulator_runner.hpp"
#include "sweeps/slurm_script.hpp"
#include "sweeps/spec.hpp"
#include "sweeps/stop_signal.hpp"
#include "sweeps/sweep_run.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;
using namespace warpsim::sweeps;

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@%+") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_line(const Args& args) {
  std::string s = "warpsim sweep";
  for (const auto& a : args) {
    s += ' ';
    s += shell_quote(a);
  }
  return s;
}

void print_dry_run(const SweepSpec& spec, long long requested_sample) {
  if (requested_sample < 0) throw sim::InputError("--sample", "must be 0 or more");
  auto points = enumerate_points(spec);
  // More than the points there are shows every point once.
  const std::size_t sample = std::min<std::size_t>(static_cast<std::size_t>(requested_sample), points.size());
  std::cout << points.size() << " points in " << spec.studies.size() << (spec.studies.size() == 1 ? " study" : " studies")
            << '\n';
  for (const auto& st : spec.studies) {
    std::cout << "  study " << st.name << ": " << st.point_count() << " points";
    auto axes = st.axes();
    if (!axes.empty()) {
      std::cout << " =";
      for (std::size_t i = 0; i < axes.size(); ++i)
        std::cout << (i ? " x " : " ") << axes[i]->values.size() << ' ' << axes[i]->name;
    }
    if (st.sample) std::cout << ", sampled";
    std::cout << '\n';
  }
  if (points.empty() || sample == 0) return;
  // Evenly spaced points, first and last included, so the sample shows every study.
  std::vector<std::size_t> picks;
  for (std::size_t i = 0; i < sample; ++i) {
    std::size_t at = sample == 1 ? 0 : i * (points.size() - 1) / (sample - 1);
    if (picks.empty() || picks.back() != at) picks.push_back(at);
  }
  std::cout << "sample:\n";
  for (auto at : picks) {
    const Point& p = points[at];
    std::cout << "  point " << p.index << " [" << spec.studies[p.study].name << "] arch=" << p.request.arch << ' '
              << (p.request.kernel.empty() ? "trace=" + p.request.trace : "kernel=" + p.request.kernel);
    for (const auto& o : p.request.arch_overrides) std::cout << " set." << o;
    for (const auto& kv : p.request.kernel_params) std::cout << ' ' << kv;
    std::cout << '\n';
  }
}

// CONTRACT.md's exit codes: a sweep none of whose points succeeded ends like an input error
// when the simulator refused every point, like an internal failure otherwise; its result file
// is still there, with each point's message. An interrupted sweep ends as the signal asked.
int exit_status(SweepOutcome outcome) {
  switch (outcome) {
    case SweepOutcome::Complete:
      return kExitOk;
    case SweepOutcome::Interrupted:
      return 128 + (stop_signal_number() ? stop_signal_number() : 2);
    case SweepOutcome::EveryPointRefused:
      return kExitInputError;
    case SweepOutcome::EveryPointFailed:
      return kExitInternalError;
  }
  return kExitInternalError;
}

int sweep_merge(const Args& args) {
  const char* usage = "sweep merge OUT.h5 SHARD.h5... [-j N]";
  po::options_description options("sweep merge options");
  options.add_options()("files", po::value<std::vector<std::string>>()->composing(), "OUT.h5 then the shard files")(
      "jobs,j", po::value<int>()->default_value(0),
      "worker threads for sampled points simulated again in full (0 = all cores)");
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  Args rest(args.begin() + 1, args.end());
  if (!parse_options("sweep", usage, options, positional, rest, vm)) return kExitOk;
  auto files = vm.count("files") ? vm["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (files.size() < 2) throw sim::InputError("sweep merge", std::string("expected OUT.h5 and at least one shard; usage: warpsim ") + usage);
  fs::path out = files.front();
  std::vector<fs::path> shards(files.begin() + 1, files.end());
  check_output_path(out, shards);  // refuses an output that is one of the shards
  DriverOptions full;  // for sampled points simulated again in full (refine_order.hpp)
  full.jobs = vm["jobs"].as<int>();
  if (full.jobs < 0 || full.jobs > 4096) throw sim::InputError("-j", "must be 0 (all cores) to 4096");
  full.progress = ProgressMode::Auto;
  full.label = "sweep merge (points simulated again in full)";
  full.stop = &install_stop_handlers();
  const MergeOutcome merged = merge_result_files(out, shards, command_line(args), default_point_runner(), full);
  if (merged.interrupted) {
    std::cerr << "interrupted: points simulated again are saved in " << journal_path(out, ".full").string()
              << "; run the same command again to resume\n";
    return exit_status(SweepOutcome::Interrupted);
  }
  std::cerr << "merged " << shards.size() << " files into " << out.string() << '\n';
  if (merged.failed) std::cerr << out.string() << ": " << merged.failed->summary() << '\n';
  return exit_status(outcome_of(merged.failed));
}

int sweep_slurm(const Args& args) {
  const char* usage =
      "sweep slurm SPEC.ini [-o OUT.h5] [--tasks N] [--cpus-per-task C] [--time HH:MM:SS] [--partition P] [--script FILE]";
  po::options_description options("sweep slurm options");
  options.add_options()("spec", po::value<std::string>(), "sweep spec")(
      "output,o", po::value<std::string>(), "merged result file (default: SPEC's name .h5 in this directory)")(
      "tasks", po::value<long long>()->default_value(4), "array tasks (shards)")(
      "cpus-per-task", po::value<int>()->default_value(4), "CPUs (TBB threads) per task")(
      "time", po::value<std::string>()->default_value("01:00:00"), "time limit per job")(
      "partition", po::value<std::string>()->default_value(""), "partition (default: the cluster's)")(
      "job-name", po::value<std::string>()->default_value(""), "job name (default: warpsim-SPEC)")(
      "script", po::value<std::string>(), "write the script here (default: stdout)");
  po::positional_options_description positional;
  positional.add("spec", 1);
  po::variables_map vm;
  Args rest(args.begin() + 1, args.end());
  if (!parse_options("sweep", usage, options, positional, rest, vm)) return kExitOk;
  if (!vm.count("spec")) throw sim::InputError("sweep slurm", std::string("no spec given; usage: warpsim ") + usage);
  SlurmOptions o;
  o.spec = vm["spec"].as<std::string>();
  SweepSpec spec = parse_spec(o.spec);  // refuse a bad spec now, not on the cluster
  o.points = spec.point_count();
  o.samples = spec.any_sampled();
  o.output = vm.count("output") ? fs::path(vm["output"].as<std::string>()) : default_output(o.spec, std::nullopt);
  // Read signed: an unsigned option takes "-1" for 2^64 - 1.
  const long long tasks = vm["tasks"].as<long long>();
  if (tasks < 1) throw sim::InputError("--tasks", "must be at least 1");
  o.tasks = static_cast<std::size_t>(tasks);
  if (o.tasks > o.points)
    throw sim::InputError("--tasks", std::to_string(o.tasks) + " array tasks for " + std::to_string(o.points) +
                                         " points; at most one task per point");
  o.cpus_per_task = vm["cpus-per-task"].as<int>();
  if (o.cpus_per_task < 1) throw sim::InputError("--cpus-per-task", "must be at least 1");
  o.time_limit = vm["time"].as<std::string>();
  o.partition = vm["partition"].as<std::string>();
  o.job_name = vm["job-name"].as<std::string>();
  o.warpsim = fs::read_symlink("/proc/self/exe");
  std::string script = slurm_submit_script(o);
  if (vm.count("script")) {
    fs::path path = vm["script"].as<std::string>();
    std::ofstream out(path);
    out << script;
    if (!out) throw sim::InputError(path.string(), "cannot write the script");
    out.close();
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
    std::cerr << "wrote " << path.string() << "; submit with: bash " << path.string() << '\n';
  } else {
    std::cout << script;
  }
  return kExitOk;
}

}  // namespace

int cmd_sweep(const Args& args) {
  if (!args.empty() && args.front() == "merge") return sweep_merge(args);
  if (!args.empty() && args.front() == "slurm") return sweep_slurm(args);

  const char* usage =
      "sweep SPEC.ini [-o OUT.h5] [-j N] [--shard I/N] [--progress auto|bar|log|none] [--log-interval S] [--dry-run]\n"
      "       warpsim sweep merge OUT.h5 SHARD.h5...\n"
      "       warpsim sweep slurm SPEC.ini [-o OUT.h5] [--tasks N] [--cpus-per-task C] ...\n\n"
      "Runs every point of SPEC (format: docs/sweeps.md) in parallel and writes HDF5 results.\n"
      "Finished points are journaled in OUT.h5.journal; after a kill, the same command resumes.\n"
      "In a Slurm array job the shard comes from SLURM_ARRAY_TASK_ID/COUNT; under mpirun (MPI\n"
      "builds) ranks split the points and rank 0 writes OUT.h5";
  // The help names whether this build has MPI, so scripts and tests can tell.
  po::options_description options(std::string("sweep options (this build: MPI ") + (built_with_mpi() ? "on" : "off") + ")");
  options.add_options()("spec", po::value<std::string>(), "sweep spec (INI)")(
      "output,o", po::value<std::string>(), "result file (default: SPEC's name .h5 in this directory)")(
      "jobs,j", po::value<int>()->default_value(0), "worker threads (default: SLURM_CPUS_PER_TASK or all cores)")(
      "shard", po::value<std::string>(), "run only shard I of N (points with index % N == I)")(
      "progress", po::value<std::string>()->default_value("auto"), "auto, bar (live line), log (timestamped lines) or none")(
      "log-interval", po::value<int>()->default_value(30), "seconds between progress lines in log mode")(
      "dry-run", po::bool_switch(), "print the number of points and a sample; run nothing")(
      "sample", po::value<long long>()->default_value(6), "points shown by --dry-run");
  po::positional_options_description positional;
  positional.add("spec", 1);
  po::variables_map vm;
  if (!parse_options("sweep", usage, options, positional, args, vm)) return kExitOk;
  if (!vm.count("spec")) throw sim::InputError("sweep", "no spec given; usage: warpsim sweep SPEC.ini [-o OUT.h5] ...");

  SweepRunOptions o;
  o.spec = vm["spec"].as<std::string>();
  if (vm["dry-run"].as<bool>()) {
    print_dry_run(parse_spec(o.spec), vm["sample"].as<long long>());
    return kExitOk;
  }
  o.jobs = vm["jobs"].as<int>();
  if (o.jobs < 0) throw sim::InputError("-j", "must be 0 (all cores) or more");
  // Each job is a thread; far beyond any node's cores, creating them fails.
  if (o.jobs > 4096) throw sim::InputError("-j", "at most 4096 worker threads");
  if (vm.count("shard")) o.shard = parse_shard(vm["shard"].as<std::string>());
  else o.shard = shard_from_slurm_environment();
  o.progress = parse_progress_mode(vm["progress"].as<std::string>());
  int interval = vm["log-interval"].as<int>();
  if (interval < 1) throw sim::InputError("--log-interval", "must be at least 1 second");
  o.log_interval = std::chrono::seconds(interval);
  o.output = vm.count("output") ? fs::path(vm["output"].as<std::string>()) : default_output(o.spec, o.shard);
  o.command_line = command_line(args);
  o.stop = &install_stop_handlers();

  PointRunner runner = default_point_runner();
  SweepOutcome outcome;
  if (started_by_mpi()) {
    if (o.shard) throw sim::InputError("--shard", "under mpirun the ranks are the shards; drop --shard");
    outcome = run_sweep_mpi(o, runner);
  } else {
    outcome = run_sweep(o, runner);
  }
  return exit_status(outcome);
}

}  // namespace warpsim::cli
