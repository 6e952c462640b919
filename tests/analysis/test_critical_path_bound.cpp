// No simulated run can be faster than the dependency graph's critical path of any of its blocks:
// checked for every library kernel (small sizes) on every preset and for every shared trace.
#include <catch2/catch.hpp>
#include <map>

#include "analysis/dependency_graph.hpp"
#include "models/simulate.hpp"
#include "tests/test_support.hpp"
#include "traces/kernels/library.hpp"
#include "traces/open_workload.hpp"

using namespace warpsim;

namespace {
// Small problem sizes per kernel, so each run takes milliseconds.
const std::map<std::string, std::vector<std::string>> kSmall = {
    {"readOffset", {"n=16384", "offset=11"}},  {"readOffsetNC", {"n=16384", "offset=1"}},
    {"writeOffset", {"n=16384", "offset=1"}},  {"readOffsetUnroll", {"n=65536", "unroll=4"}},
    {"stridedRead", {"n=65536", "stride=4"}},  {"testInnerStruct", {"n=16384"}},
    {"testInnerArray", {"n=16384"}},           {"transposeNaive", {"width=128"}},
    {"transposeShared", {"width=128"}},        {"fmaChain", {"iters=256", "grid=4"}},
    {"chase", {"working_set_bytes=65536", "steps=200"}},
    {"persistKernel", {"data_bytes=1048576", "persist_bytes=65536"}},
    {"persistLoop", {}},                      {"emptyKernel", {"grid=8"}},
};
}  // namespace

TEST_CASE("no library kernel simulates faster than its block-0 critical path", "[analysis][bound]") {
  for (const auto& def : traces::kernels::library()) {
    auto it = kSmall.find(def.name);
    INFO(def.name);
    REQUIRE(it != kSmall.end());  // a new kernel needs a small size here
    for (const char* preset : {"fermi-m2070", "kepler-k20x", "hopper-h100"}) {
      INFO(preset);
      models::Arch arch = models::load_arch(preset);
      auto kernel = traces::kernels::make_kernel(def.name, it->second, traces::IsaTarget{arch.gpu.sm_version});
      auto bound = analysis::analyze_block(arch, *kernel.source, 0);
      models::RunResult run = models::simulate({preset, {}, def.name, it->second, "", 1});
      CHECK(run.cycles >= bound.critical_path_cycles);
      CHECK(bound.instructions > 0);
    }
  }
}

TEST_CASE("no shared trace simulates faster than any launch's block-0 critical path", "[analysis][bound]") {
  models::Arch arch = models::load_arch("hopper-h100");
  for (const char* trace : {"vectoradd-sm80-v5", "bfs-rodinia-sm80-v3", "btree-rodinia-sm90-v5", "ffma-sm90-v5"}) {
    INFO(trace);
    const std::string path = test::shared_path(std::string("traces/") + trace + "/kernelslist.g");
    std::uint64_t longest = 0;
    traces::Workload workload = traces::open_workload(path);
    for (auto& step : workload.steps)
      if (step.kind == traces::WorkloadStep::Kind::Launch) {
        auto source = step.launch.open();
        longest = std::max(longest, analysis::analyze_block(arch, *source, 0).critical_path_cycles);
      }
    models::RunResult run = models::simulate({"hopper-h100", {}, "", {}, path, 1});
    CHECK(longest > 0);
    CHECK(run.cycles >= longest);
  }
}
