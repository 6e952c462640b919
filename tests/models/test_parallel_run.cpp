// The SMs of a window may tick at once on several host threads (run -j, models/core/gpu.hpp).
// The results must not depend on how many: every metric, every launch's, the warnings and the
// timeline bit for bit, with 4 threads as with 1 (4 is more than this machine's 2 cores, so
// threads also interleave at random), on library kernels that exercise what an SM hands on
// during a window (blocks retiring into the GigaThread engine, shared-memory and constant counts,
// barriers, several waves), on all three presets, on a multi-launch trace of each kind, on an
// --ncu run and on a sampled one (the sampler reads the counters while blocks retire).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/simulate.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

models::RunRequest library_run(std::string arch, std::string kernel, std::vector<std::string> params) {
  models::RunRequest r;
  r.arch = std::move(arch);
  r.kernel = std::move(kernel);
  r.kernel_params = std::move(params);
  return r;
}

models::RunRequest trace_run(std::string arch, const std::string& shared_trace) {
  models::RunRequest r;
  r.arch = std::move(arch);
  r.trace = test::shared_path(shared_trace);
  return r;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void require_same_metrics(const std::vector<std::pair<std::string, double>>& one,
                          const std::vector<std::pair<std::string, double>>& many) {
  REQUIRE(one.size() == many.size());
  for (std::size_t k = 0; k < one.size(); ++k) {
    INFO(one[k].first);
    REQUIRE(same(one[k].second, many[k].second));  // bit for bit, not approximately
  }
}

void require_same_on_threads(models::RunRequest request) {
  request.threads = 1;
  const models::RunResult one = models::simulate(request);
  request.threads = 4;
  const models::RunResult many = models::simulate(request);
  INFO(request.arch << " " << request.kernel << request.trace);
  REQUIRE(one.cycles == many.cycles);
  REQUIRE(one.warp_instructions == many.warp_instructions);
  require_same_metrics(one.metrics, many.metrics);
  REQUIRE(one.text_metrics == many.text_metrics);
  REQUIRE(one.warnings == many.warnings);
  REQUIRE(one.sampling.sampled == many.sampling.sampled);
  REQUIRE(one.kernels.size() == many.kernels.size());
  for (std::size_t k = 0; k < one.kernels.size(); ++k) {
    INFO("launch " << one.kernels[k].launch);
    REQUIRE(one.kernels[k].start_cycle == many.kernels[k].start_cycle);
    REQUIRE(one.kernels[k].cycles == many.kernels[k].cycles);
    require_same_metrics(one.kernels[k].metrics, many.kernels[k].metrics);
  }
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a run gives the same results on 4 threads as on 1", "[models][parallel]") {
  const std::vector<models::RunRequest> runs = {
      library_run("hopper-h100", "readOffset", {"n=1M", "offset=11"}),  // several waves
      library_run("hopper-h100", "transposeShared", {"width=512", "pad=0"}),  // barriers, bank conflicts
      library_run("hopper-h100", "fmaChain", {"ilp=4", "iters=64"}),
      library_run("hopper-h100", "persistKernel", {"data_bytes=4M", "persist_bytes=512K", "window_bytes=512K"}),
      library_run("kepler-k20x", "writeOffset", {"n=256K", "offset=1"}),
      library_run("kepler-k20x", "transposeShared", {"width=256", "pad=1"}),  // dual issue
      library_run("fermi-m2070", "testInnerStruct", {"n=256K"}),  // L1 lines
      library_run("fermi-m2070", "chase", {"working_set_bytes=64K", "steps=500"}),
  };
  for (const models::RunRequest& r : runs) require_same_on_threads(r);
}

TEST_CASE("traces, --ncu and sampled runs give the same results on 4 threads as on 1", "[models][parallel]") {
  require_same_on_threads(trace_run("hopper-h100", "traces/btree-rodinia-sm90-v5/kernelslist.g"));
  require_same_on_threads(trace_run("kepler-k20x", "traces/bfs-rodinia-sm80-v3/kernelslist.g"));
  models::RunRequest ncu = trace_run("hopper-h100", "calibration/h100/apps/backprop/kernelslist.g");
  ncu.ncu = true;
  require_same_on_threads(ncu);
  models::RunRequest sampled = library_run("kepler-k20x", "readOffset", {"n=2M"});
  sampled.sample = true;
  require_same_on_threads(sampled);
}

TEST_CASE("a timeline is the same on 4 threads as on 1", "[models][parallel]") {
  const std::filesystem::path dir = test::temp_dir("parallel-timeline");
  models::RunRequest r = library_run("hopper-h100", "readOffset", {"n=1M", "block=128"});
  r.threads = 1;
  r.timeline = (dir / "one.csv").string();
  models::simulate(r);
  r.threads = 4;
  r.timeline = (dir / "four.csv").string();
  models::simulate(r);
  const std::string one = file_text(dir / "one.csv");
  REQUIRE(one.size() > 1000);
  REQUIRE(one == file_text(dir / "four.csv"));
  std::filesystem::remove_all(dir);
}
