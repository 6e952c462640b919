// Sampled simulation against full simulation, both run here (never against stored numbers: the
// model moves): every library kernel on each preset at sizes that sample, the corpus traces, and
// what sampling must never hide -- a trace's errors and warnings in the blocks it skips. A launch
// that falls back to full simulation must give the full run's results bit for bit: the sampler
// only reads the GPU's counters while it watches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/validation/sampled_vs_full.hpp"
#include "models/core/gpu.hpp"
#include "models/sampling/sampler.hpp"
#include "models/simulate.hpp"
#include "traces/open_workload.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

bool has_warning(const models::RunResult& r, const std::string& text) {
  return std::any_of(r.warnings.begin(), r.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// A launch that fell back ran in full: every number as the full run's.
void require_identical(const models::RunResult& full, const models::RunResult& sampled) {
  REQUIRE(sampled.cycles == full.cycles);
  REQUIRE(sampled.metrics.size() == full.metrics.size());
  for (std::size_t i = 0; i < full.metrics.size(); ++i) {
    INFO(full.metrics[i].first);
    CHECK((sampled.metrics[i].second == full.metrics[i].second ||
           (std::isnan(sampled.metrics[i].second) && std::isnan(full.metrics[i].second))));
  }
}

// Every row of the validation table on `arch` at 1/scale of its sizes, and `extra` rows: the
// exact counts equal; the time within 3%, or within the error stated where that is larger (a
// grid of a few dozen waves, whose seam between skipped and simulated blocks weighs more than at
// the table's sizes, bench/bench_sampling); the median within 1%; a fallback identical to the
// full run and said; and at least `min_sampled` rows sampled, so that the test fails if sampling
// stops engaging.
void check_library_table(const std::string& arch, int scale, std::size_t min_sampled,
                         std::vector<models::RunRequest> extra = {}) {
  std::vector<double> errors;
  auto requests = analysis::library_table(arch, scale);
  requests.insert(requests.end(), extra.begin(), extra.end());
  for (const auto& request : requests) {
    const auto c = analysis::compare_sampled(analysis::table_label(request), request);
    INFO(c.label);
    CHECK(c.exact_mismatches().empty());
    REQUIRE(c.sampled.sampling.asked);
    if (c.sampled.sampling.sampled) {
      errors.push_back(std::fabs(c.time_error_pct()));
      CHECK(std::fabs(c.time_error_pct()) <= std::max(3.0, c.sampled.sampling.time_error_pct));
      CHECK(c.sampled.sampling.detail_fraction < 1.0);
      CHECK(c.sampled.sampling.time_error_pct > 0.0);
    } else {
      require_identical(c.full, c.sampled);
      CHECK(has_warning(c.sampled, "sampling fell back to full simulation: " + c.sampled.sampling.fallback));
    }
  }
  CHECK(errors.size() >= min_sampled);
  std::sort(errors.begin(), errors.end());
  if (!errors.empty()) CHECK(errors[errors.size() / 2] <= 1.0);
}

}  // namespace

TEST_CASE("sampled runs agree with full runs on every library kernel: fermi-m2070", "[sampling][slow]") {
  check_library_table("fermi-m2070", 2, 8);
}

TEST_CASE("sampled runs agree with full runs on every library kernel: kepler-k20x", "[sampling][slow]") {
  check_library_table("kepler-k20x", 2, 6);
}

TEST_CASE("sampled runs agree with full runs on every library kernel: hopper-h100", "[sampling][slow]") {
  // At an eighth of the table's sizes the kernels end before steady state on the H100 (their
  // fallbacks are checked); a copy and the block dispatch at the table's sizes sample.
  models::RunRequest copy;
  copy.arch = "hopper-h100";
  copy.kernel = "readOffset";
  copy.kernel_params = {"n=16M", "offset=11"};
  models::RunRequest dispatch = copy;
  dispatch.kernel = "emptyKernel";
  dispatch.kernel_params = {"grid=132000"};
  check_library_table("hopper-h100", 8, 2, {copy, dispatch});
}

TEST_CASE("sampled runs agree with full runs on the corpus traces; repeated launches are credited", "[sampling][slow]") {
  std::size_t launches_credited = 0;
  for (const auto& request : analysis::trace_table()) {
    const auto c = analysis::compare_sampled(analysis::table_label(request), request);
    INFO(c.label);
    CHECK(c.exact_mismatches().empty());
    CHECK(std::fabs(c.time_error_pct()) <= 3.0);
    for (const auto& k : c.sampled.kernels) launches_credited += k.sampling.sampled;
    if (!c.sampled.sampling.sampled) require_identical(c.full, c.sampled);
  }
  // fdtd2d repeats each of its three kernels five times.
  CHECK(launches_credited >= 6);
}

namespace {

// A trace of `blocks` one-warp blocks, each running a few dependent integer adds, on a K20X
// (224 such blocks at once): many waves of alike blocks, which sampling skips most of. Block
// `odd` has `odd_line` in place of its second add.
std::string write_trace(const std::string& dir, int blocks, int odd, const std::string& odd_line) {
  std::string text =
      "-kernel name = _Z4testv\n-kernel id = 1\n-grid dim = (" + std::to_string(blocks) +
      ",1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 80\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0100000000\n-nvbit version = 1.7\n"
      "-accelsim tracer version = 3\n\n#traces format = whatever\n\n";
  for (int b = 0; b < blocks; ++b) {
    text += "#BEGIN_TB\nthread block = " + std::to_string(b) + ",0,0\nwarp = 0\ninsts = 5\n";
    text += "0000 ffffffff 1 R1 IADD3 2 R1 R255 0 \n";
    text += b == odd ? odd_line + "\n" : "0010 ffffffff 1 R1 IADD3 2 R1 R255 0 \n";
    text += "0020 ffffffff 1 R1 IADD3 2 R1 R255 0 \n0030 ffffffff 1 R1 IADD3 2 R1 R255 0 \n";
    text += "0040 ffffffff 0 EXIT 0 0 \n#END_TB\n";
  }
  const std::string path = dir + "/kernel.traceg";
  std::ofstream(path) << text;
  return path;
}

models::RunRequest trace_run(const std::string& path, bool sample) {
  models::RunRequest r;
  r.arch = "kepler-k20x";
  r.trace = path;
  r.sample = sample;
  return r;
}

// Whether sampling skips block `id` of the trace at `path`: a GPU and a sampler as simulate()
// builds them, and the skipped ranges of the one launch's record.
bool skips_block(const std::string& path, std::uint64_t id) {
  const models::Arch arch = models::load_arch("kepler-k20x", {});
  sim::StatsRegistry stats;
  auto memory = models::make_memory_system(memory_system_specs(arch), stats, 1);
  models::Gpu gpu(arch, *memory, stats);
  models::sampling::Sampler sampler(arch, gpu, 1);
  traces::Workload workload = traces::open_workload(path);
  gpu.run(workload);
  for (const auto& r : sampler.record(0).skipped)
    if (id >= r.first && id < r.first + r.count) return true;
  return false;
}

}  // namespace

TEST_CASE("sampling keeps the warnings and errors of the blocks it skips", "[sampling]") {
  const std::string dir = test::temp_dir("sampling-trace");
  const int blocks = 224 * 40;
  const int odd = blocks / 2;  // in the first skipped chunk (checked below)
  SECTION("alike blocks: skipped, with exact counts") {
    const std::string path = write_trace(dir, blocks, -1, "");
    const auto c = analysis::compare_sampled("alike", trace_run(path, false));
    REQUIRE(c.sampled.sampling.sampled);
    CHECK(c.sampled.sampling.detail_fraction <= 0.6);  // a trace skips 16 waves at a time: here 16 of 40
    CHECK(c.exact_mismatches().empty());
    CHECK(c.sampled.warp_instructions == std::uint64_t(blocks) * 5);
  }
  SECTION("an unknown opcode in a skipped block is still reported") {
    const std::string path = write_trace(dir, blocks, odd, "0010 ffffffff 1 R1 FROBNICATE 2 R1 R255 0 ");
    const auto c = analysis::compare_sampled("unknown opcode", trace_run(path, false));
    REQUIRE(has_warning(c.full, "unknown opcode 'FROBNICATE'"));
    REQUIRE(skips_block(path, odd));
    CHECK(c.sampled.sampling.sampled);
    CHECK(has_warning(c.sampled, "unknown opcode 'FROBNICATE'"));
  }
  SECTION("a malformed line in a skipped block is the same error") {
    const std::string path = write_trace(dir, blocks, odd, "0010 ffffffff 1 R1 IADD3 9 R1 R255 0 ");
    std::string full_error, sampled_error;
    try {
      models::simulate(trace_run(path, false));
    } catch (const sim::InputError& e) {
      full_error = e.what();
    }
    try {
      models::simulate(trace_run(path, true));
    } catch (const sim::InputError& e) {
      sampled_error = e.what();
    }
    REQUIRE(full_error.find("source count 9") != std::string::npos);
    CHECK(sampled_error == full_error);
    // Where sampling skips the odd block when it is well formed.
    CHECK(skips_block(write_trace(dir, blocks, odd, "0010 ffffffff 1 R1 IADD3 2 R1 R255 0 "), odd));
  }
  SECTION("a block that differs from the others stops the skip: the launch runs in full, and says so") {
    const std::string path = write_trace(dir, blocks, odd, "0010 ffffffff 1 R1 IADD3 2 R1 R255 0 \n"
                                                           "0018 ffffffff 1 R1 IADD3 2 R1 R255 0 ");
    // insts = 5 announced, 6 lines: patch the count of the odd block.
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string mark = "thread block = " + std::to_string(odd) + ",0,0\nwarp = 0\ninsts = 5";
    text.replace(text.find(mark), mark.size(), mark.substr(0, mark.size() - 1) + "6");
    std::ofstream(path) << text;
    const auto c = analysis::compare_sampled("odd block", trace_run(path, false));
    CHECK_FALSE(c.sampled.sampling.sampled);
    CHECK(c.sampled.sampling.fallback.find("block " + std::to_string(odd) + " (1 warps, 6 instructions") !=
          std::string::npos);
    CHECK(has_warning(c.sampled, "sampling fell back to full simulation"));
    require_identical(c.full, c.sampled);
  }
  fs::remove_all(dir);
}

TEST_CASE("run --sample --json says what was sampled and what was extrapolated", "[sampling][cli]") {
  const auto sampled = test::run_warpsim("run --arch kepler-k20x --kernel emptyKernel -p grid=14000 --sample --json");
  REQUIRE(sampled.exit_code == 0);
  CHECK(sampled.out.find("\"sampled\": true, \"detail_fraction\": ") != std::string::npos);
  CHECK(sampled.out.find("\"time_error_pct\": ") != std::string::npos);
  CHECK(sampled.out.find("\"extrapolated\": [\"cycles\", \"time_ms\", \"ipc\", \"achieved_occupancy\"") !=
        std::string::npos);
  CHECK(sampled.out.find("\"warp_instructions\", ") == std::string::npos);  // exact: not in the list
  CHECK(sampled.err.empty());

  const auto fallback = test::run_warpsim("run --arch kepler-k20x --kernel emptyKernel -p grid=100 --sample --json");
  REQUIRE(fallback.exit_code == 0);
  CHECK(fallback.out.find("\"sampled\": false, \"detail_fraction\": 1, \"time_error_pct\": 0, \"sample_fallback\": "
                          "\"its 100 blocks are 0.89 waves of 112; sampling needs at least 26\"") != std::string::npos);
  CHECK(fallback.err.find("warning: sampling fell back to full simulation: its 100 blocks") != std::string::npos);

  const auto unsampled = test::run_warpsim("run --arch kepler-k20x --kernel emptyKernel -p grid=100 --json");
  CHECK(unsampled.out.find("sampled") == std::string::npos);

  const auto text = test::run_warpsim("run --arch kepler-k20x --kernel emptyKernel -p grid=14000 --sample");
  CHECK(text.out.find("\nsampled     yes (detail_fraction ") != std::string::npos);
  CHECK(text.out.find("detail_fraction") != std::string::npos);
}
