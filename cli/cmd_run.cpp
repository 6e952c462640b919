// warpsim run: simulate one library kernel or one trace and print its time, why it takes that
// long (run_summary.hpp) and, for a trace, each launch's; --all adds every metric, --json all of it.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/options.hpp"
#include "cli/run_summary.hpp"
#include "models/metric_info.hpp"
#include "models/simulate.hpp"
#include "sim/errors.hpp"
#include "sim/stats_writers.hpp"
#include "sim/window_workers.hpp"

namespace warpsim::cli {
namespace {

constexpr const char* kUsage =
    "run --arch ARCH (--kernel KERNEL [-p key=value]... | --trace PATH) [--launches LIST] [--ncu "
    "[--cache-control all|none]] [--sample] [--set key=value]... [--seed N] [--timeline FILE] [-j N] [--stats] [--json | --all] "
    "| run --metrics";

constexpr const char* kMeasurementHelp = R"(
Measurement. By default a run is the application's view: launches of one stream follow each
other, launches of different streams overlap, caches stay warm from launch to launch, and the
totals cover the whole run. --ncu measures as Nsight Compute does: each launch waits until the
GPU is idle and is timed from its own start, and with --cache-control all (ncu's default) every
cache is written back and invalidated before each launch, outside the launch's time and
counters (the dirty lines it writes back are in no launch's dram_write_bytes); the totals are
then the sums over the launches. --cache-control none keeps the caches warm across the
serialized launches.

Per launch (trace runs: "kernels" in --json, a table in the text output). Counts that belong to
an instruction or an access (instructions, requests, sectors, cache lookups and hits, DRAM
bytes, bank conflicts, replays) are the launch's own even where launches of different streams
overlap: each is charged to the kernel that issued it (a DRAM write-back to the kernel whose
access evicted the line). Cycle-based metrics (achieved_occupancy, stall_*) are a launch's own
only when no other launch was on the GPU while it ran; where launches overlapped they are null
and the launch is marked "overlapped". ipc is over the launch's own cycles.

Sampling. --sample runs each launch of 26 waves or more in detail until it is steady, credits
the blocks that would follow at the rate measured, and runs the last wave in detail; a launch
that repeats the last two of its kernel is credited their time. Counts that follow from the
instruction streams stay exact; the result says what was sampled, the fraction simulated in
detail, the time's estimated error and which metrics are extrapolated, or why it all ran in
full (docs/sampling.md).

`warpsim run --metrics` lists every metric with its Nsight Compute counterpart.
)";

// A Markdown table, so that documents can include it as printed.
void print_metric_table() {
  std::cout << "| metric | Nsight Compute counterpart | what the simulator counts | unit |\n|---|---|---|---|\n";
  for (const auto& m : models::metric_infos())
    std::cout << "| `" << m.name << "` | " << m.ncu << " | " << m.counts << " | " << m.unit << " |\n";
}

std::string dim_text(const std::array<std::uint32_t, 3>& d) {
  std::ostringstream s;
  s << '(' << d[0] << ',' << d[1] << ',' << d[2] << ')';
  return s.str();
}

double metric(const models::LaunchResult& k, const std::string& name) {
  for (const auto& [n, v] : k.metrics)
    if (n == name) return v;
  return 0;
}

std::string limiter(const models::LaunchResult& k) {
  for (const auto& [n, v] : k.text_metrics)
    if (n == "limiter") return v;
  return "";
}

// One line per launch: where it starts and how long it takes, and the metrics people look at
// first; --json has them all.
void print_launch_table(const models::RunResult& r) {
  std::cout << "\nlaunches" << (r.ncu ? " (ncu: each alone, timed from its own start)" : "") << "\n"
            << std::right << std::setw(6) << "launch" << "  " << std::left << std::setw(36) << "name" << std::setw(14)
            << "grid" << std::setw(12) << "block" << std::right << std::setw(12) << "start_cycle" << std::setw(10)
            << "cycles" << std::setw(11) << "time_us" << std::setw(12) << "warp_inst" << std::setw(10) << "occupancy"
            << std::setw(8) << "l1_hit%" << std::setw(8) << "l2_hit%" << std::setw(12) << "dram_bytes" << "  limiter"
            << '\n';
  for (const auto& k : r.kernels) {
    std::ostringstream occupancy;
    if (k.overlapped)
      occupancy << "overlap";
    else
      occupancy << std::fixed << std::setprecision(3) << metric(k, "achieved_occupancy");
    std::cout << std::right << std::setw(6) << k.launch << "  " << std::left << std::setw(36)
              << (k.name.size() > 35 ? k.name.substr(0, 34) + "~" : k.name) << std::setw(14) << dim_text(k.grid)
              << std::setw(12) << dim_text(k.block) << std::right << std::setw(12) << k.start_cycle << std::setw(10)
              << k.cycles << std::setw(11) << std::fixed << std::setprecision(3) << k.time_ms * 1e3 << std::setw(12)
              << std::setprecision(0) << metric(k, "warp_instructions") << std::setw(10) << occupancy.str()
              << std::setw(8) << std::setprecision(1) << metric(k, "l1_hit_rate") << std::setw(8)
              << metric(k, "l2_hit_rate") << std::setw(12) << std::setprecision(0)
              << metric(k, "dram_read_bytes") + metric(k, "dram_write_bytes") << "  " << limiter(k) << '\n';
    std::cout.unsetf(std::ios::floatfield);
    std::cout << std::setprecision(6);
  }
}

// What sampling did, when asked: how much ran in detail and the time's estimated error, or why
// it all ran in detail.
void print_sampling(const models::RunResult& r) {
  // In the summary's layout (cli/run_summary.cpp): a 12-character label, then the text.
  const models::SamplingSummary& s = r.sampling;
  if (!s.asked) return;
  if (!s.sampled) {
    std::cout << std::left << std::setw(12) << "sampled" << "no: " << s.fallback << '\n';
    return;
  }
  std::cout << std::left << std::setw(12) << "sampled"
            << "yes (detail_fraction " << s.detail_fraction << ", time_error_pct " << s.time_error_pct
            << "): cycles, time and every metric but the exact ones extrapolated\n"
            << std::setw(12) << "exact";
  for (const auto& [name, value] : r.metrics)
    if (models::exact_when_sampled(name)) std::cout << name << ' ';
  std::cout << '\n';
}

}  // namespace

int cmd_run(const Args& args) {
  po::options_description options("run options");
  options.add_options()("arch", po::value<std::string>(), "architecture preset (warpsim arch list)")(
      "kernel", po::value<std::string>(), "library kernel (warpsim kernels)")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "kernel parameter key=value")(
      "trace", po::value<std::string>(), "kernelslist.g, .traceg, .traceg.xz or .wtrace")(
      "launches", po::value<std::string>(),
      "simulate only these launches: 1-based positions in the trace's launch order, e.g. 3,5-9 (copies all kept)")(
      "ncu", po::bool_switch(), "measure as Nsight Compute does: launches one at a time, each timed alone (below)")(
      "cache-control", po::value<std::string>(),
      "with --ncu: all (default: write back and invalidate every cache before each launch) or none")(
      "sample", po::bool_switch(),
      "sampled simulation: skip the steady middle of large grids and repeated launches, with the error stated "
      "(docs/sampling.md)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a preset parameter key=value")(
      "seed", po::value<std::string>()->default_value("1"), "random seed")(
      "jobs,j", po::value<int>()->default_value(0),
      "host threads that tick the SMs (default 0: all cores); the results are the same for any count")("json", po::bool_switch(),
                                                                            "print one JSON object")(
      "all", po::bool_switch(), "after the summary, print every metric")(
      "stats", po::bool_switch(),
      "after the results, every counter the models registered: name value unit  # description "
      "(with --json: a \"stats\" object of {\"value\", \"unit\", \"description\"} by name)")(
      "metrics", po::bool_switch(), "list every metric with its Nsight Compute counterpart, and exit")(
      "timeline", po::value<std::string>(),
      "write every warp's start and exit cycle, block and SM, and when its first two loads' data came back, to this "
      "CSV (as tools/gpu-probes/timelines.cu and persist_timeline.cu record them)");
  po::variables_map vm;
  if (!parse_options("run", kUsage, options, {}, args, vm)) {
    std::cout << kVerdictHelp << kMeasurementHelp;
    return kExitOk;
  }
  if (vm["metrics"].as<bool>()) {
    print_metric_table();
    return kExitOk;
  }
  if (!vm.count("arch")) throw sim::InputError("run", "the option '--arch' is required");

  models::RunRequest request;
  request.arch = vm["arch"].as<std::string>();
  if (vm.count("kernel")) request.kernel = vm["kernel"].as<std::string>();
  if (vm.count("trace")) request.trace = vm["trace"].as<std::string>();
  if (vm.count("param")) request.kernel_params = vm["param"].as<std::vector<std::string>>();
  if (vm.count("set")) request.arch_overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("launches")) {
    request.launches = vm["launches"].as<std::string>();
    // simulate() reads an empty list as "every launch"; on the command line it is a mistake.
    if (request.launches.find_first_not_of(" \t") == std::string::npos)
      throw sim::InputError("--launches", "empty list; give launch numbers such as 3,5-9");
  }
  request.seed = unsigned_option(vm, "seed");
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 0 || jobs > 4096) throw sim::InputError("-j", "must be 0 (all cores) to 4096");
  request.threads = jobs > 0 ? jobs : sim::available_cores();
  if (jobs == 0) request.threads_join_after = sim::kThreadsJoinAfter;
  if (vm.count("timeline")) request.timeline = vm["timeline"].as<std::string>();
  request.ncu = vm["ncu"].as<bool>();
  request.sample = vm["sample"].as<bool>();
  request.stats = vm["stats"].as<bool>();
  if (vm.count("cache-control")) {
    const std::string mode = vm["cache-control"].as<std::string>();
    if (!request.ncu) throw sim::InputError("--cache-control", "applies to --ncu runs only");
    if (mode != "all" && mode != "none")
      throw sim::InputError("--cache-control", "expected all or none, found '" + mode + "'");
    request.ncu_flush_caches = mode == "all";
  }

  models::RunResult r = models::simulate(request);
  for (const auto& w : r.warnings) std::cerr << "warning: " << w << '\n';
  if (vm["json"].as<bool>()) {
    std::cout << models::to_json(r) << '\n';
    return kExitOk;
  }
  std::cout << r.arch << "  " << r.kernel;
  for (const auto& [k, v] : r.params) std::cout << ' ' << k << '=' << v;
  if (r.ncu) std::cout << "  (ncu measurement, cache control " << (r.ncu_flush_caches ? "all" : "none") << ")";
  std::cout << "\n\n";
  print_run_summary(std::cout, r);
  print_sampling(r);
  if (vm["all"].as<bool>()) {
    std::cout << '\n' << std::left << std::setw(26) << "cycles" << r.cycles << '\n'
              << std::setw(26) << "time_ms" << r.time_ms << '\n';
    for (const auto& [name, value] : r.metrics) std::cout << std::setw(26) << name << value << '\n';
    for (const auto& [name, value] : r.text_metrics) std::cout << std::setw(26) << name << value << '\n';
    std::cout << std::setw(26) << "wall_s" << r.wall_s << '\n';
  }
  if (!r.kernels.empty()) print_launch_table(r);
  if (request.stats) {
    std::cout << '\n';
    sim::write_stats_text(std::cout, r.stats);
  }
  return kExitOk;
}

}  // namespace warpsim::cli
