// The SMs tick a window of cycles at a time (models/core/gpu.hpp): each SM runs a whole window
// before the next, its accesses to the shared memory system wait until the window closes, and
// what depended on their answers is decided then (Sm::settle). The results must be exactly those
// of ticking every SM cycle by cycle (RunRequest::lockstep): every counter, every cycle, on runs
// that exercise what the windows defer -- loads whose results a warp's next instruction waits
// for, stalls decided after the window, barriers released inside a window, blocks retiring and
// new ones dispatched into the same SM, dual issue, greedy scheduling, Fermi's store
// transactions and L1 lines, L2 persistence, and a multi-kernel Accel-Sim trace.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/simulate.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

models::RunRequest library_run(std::string arch, std::string kernel, std::vector<std::string> params,
                               std::vector<std::string> overrides = {}) {
  models::RunRequest r;
  r.arch = std::move(arch);
  r.kernel = std::move(kernel);
  r.kernel_params = std::move(params);
  r.arch_overrides = std::move(overrides);
  return r;
}

void require_same_as_lockstep(models::RunRequest request) {
  request.lockstep = false;
  const models::RunResult windowed = models::simulate(request);
  request.lockstep = true;
  const models::RunResult lockstep = models::simulate(request);
  INFO(request.arch << " " << request.kernel << request.trace);
  REQUIRE(windowed.cycles == lockstep.cycles);
  REQUIRE(windowed.warp_instructions == lockstep.warp_instructions);
  REQUIRE(windowed.metrics.size() == lockstep.metrics.size());
  for (std::size_t k = 0; k < windowed.metrics.size(); ++k) {
    INFO(windowed.metrics[k].first);
    REQUIRE(windowed.metrics[k].second == lockstep.metrics[k].second);  // bit for bit, not approximately
  }
}

}  // namespace

TEST_CASE("a run ticked in windows gives exactly the results of one ticked cycle by cycle", "[models][sm]") {
  const std::vector<models::RunRequest> runs = {
      // Several waves of blocks: retire and dispatch into SMs that are still busy.
      library_run("hopper-h100", "readOffset", {"n=1M", "offset=1"}),
      library_run("hopper-h100", "writeOffset", {"n=256K", "offset=16"}),
      library_run("hopper-h100", "readOffsetUnroll", {"n=512K", "unroll=4", "block=96"}),
      library_run("hopper-h100", "transposeShared", {"width=512"}),  // barriers
      library_run("hopper-h100", "persistKernel",
                  {"data_bytes=4M", "persist_bytes=512K", "window_bytes=512K", "hit_ratio=0.5"},
                  {"l2.size_bytes=2M", "l2.persist_max_bytes=1M"}),
      library_run("hopper-h100", "fmaChain", {"ilp=1", "iters=64", "grid=264", "block=256"},
                  {"sm.scheduler_policy=gto"}),
      library_run("hopper-h100", "chase", {"working_set_bytes=64K", "steps=500"}),
      library_run("kepler-k20x", "transposeShared", {"width=256", "pad=0"}),  // dual issue, barriers
      library_run("kepler-k20x", "readOffsetNC", {"n=256K", "offset=3"}),
      library_run("fermi-m2070", "writeOffset", {"n=256K", "offset=11"}),
      library_run("fermi-m2070", "testInnerStruct", {"n=256K"}),
  };
  for (const models::RunRequest& r : runs) require_same_as_lockstep(r);
  models::RunRequest trace;
  trace.arch = "kepler-k20x";
  trace.trace = test::shared_path("traces/bfs-rodinia-sm80-v3/kernelslist.g");
  require_same_as_lockstep(trace);
}
