// One run on several host threads (run -j, models/core/gpu.hpp) against the same run on one:
// wall time with 1 thread and with N, side by side, alternating, each pair repeated, and the
// speed-up from the best of each. Workloads: fmaChain (compute-bound) and readOffset n = 2^26
// (memory-bound) on hopper-h100 as in bench_core, and the corpus's largest traces (matrixMul,
// fdtd2d, backprop of ../shared/calibration/h100/apps). It also checks that both give the same
// cycles. CPU time is printed beside wall time: on a shared machine wall time says more about
// the neighbours than about the simulator, so say what else ran (uptime) beside the numbers.
// Before and after each workload's runs it also says how many of the N cores the host gave the
// process just then: on a virtual machine a core may be shared with other guests without the
// guest seeing it (the same build's readOffset gave 0.99x and 1.70x at -j 2 within 15 minutes),
// and how long a cache line takes to go from one of two cores to the other and back.
//   bench_parallel [-j N] [--repeat R] [--quick] [--only NAME]
//     -j N: threads of the parallel runs (default 2); --repeat: pairs per workload (default 3);
//     --quick: smaller kernels; --only: the workloads whose label contains NAME.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <thread>
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

// How many of `threads` cores the host gives this process now: a fixed chain of integer work
// (~30 ms) timed on one thread, then on `threads` at once; `threads` when each copy runs as fast
// as the one alone.
double host_cores(int threads) {
  auto work = [] {
    std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < 20'000'000; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
    static std::atomic<std::uint64_t> sink;
    sink.fetch_xor(x, std::memory_order_relaxed);
  };
  using clock = std::chrono::steady_clock;
  auto start = clock::now();
  work();
  const double alone = std::chrono::duration<double>(clock::now() - start).count();
  start = clock::now();
  std::vector<std::thread> copies;
  for (int t = 0; t < threads; ++t) copies.emplace_back(work);
  for (std::thread& t : copies) t.join();
  const double together = std::chrono::duration<double>(clock::now() - start).count();
  return threads * alone / together;
}

// How long a cache line takes to pass from one core to another and back, in ns: two threads
// take turns incrementing one atomic. Window threads hand SMs' state and the ticket between
// cores every window; on a virtual machine two cores may be far apart (another chiplet) or
// time-share one, and this says which.
double line_round_trip_ns() {
  constexpr std::uint64_t kTurns = 100'000;
  alignas(64) std::atomic<std::uint64_t> turn{0};
  auto player = [&](std::uint64_t parity) {
    for (std::uint64_t n = parity; n < 2 * kTurns; n += 2) {
      while (turn.load(std::memory_order_acquire) != n) {
      }
      turn.store(n + 1, std::memory_order_release);
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::thread other(player, 1);
  player(0);
  other.join();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / kTurns;
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
    const double cores_before = host_cores(threads), trip_before = line_round_trip_ns();
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
              << "); speed-up " << std::setprecision(2) << one.wall / many.wall << "x (host cores before and after: "
              << cores_before << ", " << host_cores(threads) << " of " << threads << "; a line's round trip between two: "
              << std::setprecision(0) << trip_before << ", " << line_round_trip_ns() << " ns)" << std::setprecision(3) << "\n";
  }
  return 0;
}
