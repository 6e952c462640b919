// Sweep throughput: points per second at -j 1 and -j 2 for the smoke and demo specs, and the
// parallel efficiency (rate at -j N / (N x rate at -j 1); the target is >= 90%). Points run
// with the real simulator (models::simulate), or the synthetic one when
// WARPSIM_SWEEP_RUNNER=synthetic is set, which then measures the driver's own overhead.
//
// usage: bench_sweep [SPEC.ini...] [--jobs 1,2]     (default: sweeps/specs/smoke.ini demo.ini)
#include <algorithm>
#include <chrono>
#include <sys/resource.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/points.hpp"
#include "sweeps/simulator_runner.hpp"
#include "sweeps/spec.hpp"

namespace fs = std::filesystem;
using namespace warpsim;

namespace {
// CPU seconds this process used (all threads): unlike wall time, not inflated when other
// processes share the cores, so CPU per point at -j N vs -j 1 isolates the cost of parallelism.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> specs;
  std::vector<int> jobs{1, 2};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--jobs" && i + 1 < argc) {
      jobs.clear();
      std::string list = argv[++i];
      for (std::size_t start = 0; start <= list.size();) {
        auto comma = list.find(',', start);
        std::int64_t j;
        if (!sim::parse_int(list.substr(start, comma - start), j) || j < 1) {
          std::fprintf(stderr, "bench_sweep: --jobs takes a list like 1,2,4\n");
          return 2;
        }
        jobs.push_back(static_cast<int>(j));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else {
      specs.emplace_back(a);
    }
  }
  // The source tree, from this file's path: the bench runs from any directory.
  fs::path source = fs::path(__FILE__).parent_path().parent_path();
  if (specs.empty()) specs = {source / "sweeps/specs/smoke.ini", source / "sweeps/specs/demo.ini"};

  const char* runner_env = std::getenv("WARPSIM_SWEEP_RUNNER");
  sweeps::PointRunner runner = sweeps::default_point_runner();
  // Warm-up: the first simulation loads presets and builds tables that later ones reuse.
  try {
    auto warm = sweeps::enumerate_points(sweeps::parse_spec(specs.front()));
    if (!warm.empty()) sweeps::run_point(0, warm.front().request, runner);
  } catch (const sim::InputError&) {
  }
  std::printf("runner: %s\n", runner_env ? runner_env : "models::simulate");
  // efficiency: points/s at -j N over N x points/s at -j 1 (drops when other processes share the
  // cores). busy: the workers' time inside points over N x elapsed -- how well the driver keeps
  // N workers fed, whatever else runs on the machine. cpu-eff: CPU seconds per point at -j 1 over
  // those at -j N (100% = running points side by side costs nothing extra).
  std::printf("%-16s %7s %4s %10s %12s %11s %7s %8s %8s\n", "spec", "points", "-j", "seconds", "points/s",
              "efficiency", "busy", "cpu-eff", "failed");
  try {
    for (const auto& path : specs) {
      auto spec = sweeps::parse_spec(path);
      auto points = sweeps::enumerate_points(spec);
      double base_rate = 0, base_cpu = 0;
      for (int j : jobs) {
        sweeps::DriverOptions o;
        o.jobs = j;
        o.label = path.filename().string() + " -j " + std::to_string(j);
        o.progress = sweeps::ProgressMode::None;
        // Best of several runs for quick specs (at least 3, or until 5 s): one run of a
        // 12-point sweep is too short to time on a shared machine.
        double seconds = 1e300, spent = 0, busy = 0, cpu = 0;
        int runs = 0;
        sweeps::DriverOutcome outcome;
        for (int rep = 0; rep < 3 || spent < 5.0; ++rep) {
          auto start = std::chrono::steady_clock::now();
          double cpu_start = process_cpu_seconds();
          outcome = sweeps::run_points(points, runner, o);
          cpu += process_cpu_seconds() - cpu_start;
          ++runs;
          double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          if (s < seconds) {
            double inside = 0;
            for (const auto& r : outcome.results) inside += r.wall_s;
            busy = inside / (j * s);
          }
          seconds = std::min(seconds, s);
          spent += s;
          if (spent > 20.0) break;  // long specs: one run is long enough to time
        }
        double rate = double(points.size()) / seconds;
        double cpu_per_point = cpu / runs / double(points.size());
        if (j == jobs.front()) {
          base_rate = rate / j;
          base_cpu = cpu_per_point;
        }
        std::printf("%-16s %7zu %4d %10.2f %12.2f %10.0f%% %6.0f%% %7.0f%% %8zu\n", path.filename().c_str(),
                    points.size(), j, seconds, rate, 100.0 * rate / (j * base_rate), 100.0 * busy,
                    100.0 * base_cpu / cpu_per_point, outcome.failed);
        std::fflush(stdout);
      }
    }
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "bench_sweep: %s\n", e.what());
    return 2;
  }
  return 0;
}
