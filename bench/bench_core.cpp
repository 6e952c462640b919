// Simulated warp-instructions per second of host time, one core, full model (SM + memory
// system): a compute-bound kernel (fmaChain) and a memory-bound one (readOffset, n = 2^26) on
// hopper-h100. Target: >= 10 million per second. CPU time is reported beside wall time because a
// shared machine inflates wall time.
//   bench_core [--quick]     (--quick: n = 2^22 and fewer FMA iterations, for a fast look)
#include <cstring>
#include <ctime>
#include <iostream>

#include "models/simulate.hpp"

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void measure(const char* label, const warpsim::models::RunRequest& request) {
  const double cpu0 = cpu_seconds();
  warpsim::models::RunResult r = warpsim::models::simulate(request);
  const double cpu = cpu_seconds() - cpu0;
  std::cout << label << ": " << r.warp_instructions << " warp instructions, " << r.cycles << " cycles; wall "
            << r.wall_s << " s = " << r.warp_instructions / r.wall_s / 1e6 << " M/s; cpu " << cpu << " s = "
            << r.warp_instructions / cpu / 1e6 << " M/s\n";
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  using warpsim::models::RunRequest;
  measure("fmaChain ilp=4 (compute-bound)",
          RunRequest{"hopper-h100", {}, "fmaChain", {"ilp=4", quick ? "iters=256" : "iters=4096", "grid=264", "block=1024"}, "", 1});
  measure("readOffset n=2^26 (memory-bound)",
          RunRequest{"hopper-h100", {}, "readOffset", {quick ? "n=4194304" : "n=67108864"}, "", 1});
  return 0;
}
