// One run on several host threads (run -j, models/core/gpu.hpp) against the same run on one:
// wall time with 1 thread and with N, side by side, alternating, each pair repeated, and the
// speed-up from the best of each. Workloads: fmaChain (compute-bound) and readOffset n = 2^26
// (memory-bound) on hopper-h100 as in bench_core, and the corpus's largest traces (matrixMul,
// fdtd2d, backprop of ../shared/calibration/h100/apps). It also checks that both give the same
// cycles. CPU time is printed beside wall time: on a shared machine wall time says more about
// the neighbours than about the simulator, so say what else ran (uptime) beside the numbers.
//   bench_parallel [-j N] [--repeat R] [--quick] [--only NAME]
//     -j N: threads of the parallel runs (default 2); --repeat: pairs per workload (default 3);
//     --quick: smaller kernels; --only: the workloads whose label contains NAME.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "models/simulate.hpp"

namespace {

using warpsim::models::RunRequest;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Timing {
  double wall = 1e30, cpu = 0;
  std::uint64_t cycles = 0, instructions = 0;
};

void time_once(RunRequest request, int threads, Timing& best) {
  request.threads = threads;
  const double cpu0 = cpu_seconds();
  const warpsim::models::RunResult r = warpsim::models::simulate(request);
  const double cpu = cpu_seconds() - cpu0;
  if (r.wall_s < best.wall) {
    best.wall = r.wall_s;
    best.cpu = cpu;
  }
  best.cycles = r.cycles;
  best.instructions = r.warp_instructions;
}

std::string shared_dir() {
  // The build tree sits beside the source tree's parent, which holds ../shared; or name it.
  if (const char* env = std::getenv("WARPSIM_SHARED")) return env;
  for (std::filesystem::path p = std::filesystem::current_path(); !p.empty() && p != p.root_path(); p = p.parent_path())
    if (std::filesystem::exists(p / "shared/calibration/h100/apps")) return (p / "shared").string();
  return "../shared";
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, repeat = 3;
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-j" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else if (a == "--quick") quick = true;
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else {
      std::cerr << "usage: bench_parallel [-j N] [--repeat R] [--quick] [--only NAME]\n";
      return 2;
    }
  }
  std::vector<std::pair<std::string, RunRequest>> work;
  work.push_back({"fmaChain ilp=4", RunRequest{"hopper-h100", {}, "fmaChain",
                                               {"ilp=4", quick ? "iters=256" : "iters=4096", "grid=264", "block=1024"}, "", 1}});
  work.push_back({"readOffset n=2^26", RunRequest{"hopper-h100", {}, "readOffset", {quick ? "n=4194304" : "n=67108864"}, "", 1}});
  const std::string apps = shared_dir() + "/calibration/h100/apps/";
  for (const char* app : {"matrixMul", "fdtd2d", "backprop"})
    work.push_back({std::string(app) + " trace", RunRequest{"hopper-h100", {}, "", {}, apps + app + "/kernelslist.g", 1}});

  std::cout << std::fixed << std::setprecision(3);
  for (const auto& [label, request] : work) {
    if (!only.empty() && label.find(only) == std::string::npos) continue;
    Timing one, many;
    for (int k = 0; k < repeat; ++k) {
      time_once(request, 1, one);
      time_once(request, threads, many);
    }
    if (one.cycles != many.cycles) {
      std::cerr << label << ": " << one.cycles << " cycles on 1 thread, " << many.cycles << " on " << threads << "\n";
      return 1;
    }
    std::cout << label << ": " << one.instructions << " warp instructions; -j 1 wall " << one.wall << " s (cpu "
              << one.cpu << "), -j " << threads << " wall " << many.wall << " s (cpu " << many.cpu
              << "); speed-up " << std::setprecision(2) << one.wall / many.wall << std::setprecision(3) << "x\n";
  }
  return 0;
}
