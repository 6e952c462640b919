// Per-launch results (RunResult::kernels), --launches, and Nsight Compute's measurement mode
// (--ncu, --cache-control): on fdtd2d of the H100 corpus (15 launches of three stencil kernels)
// and on small lists made from its traces.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "models/simulate.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

const std::string kFdtd = "calibration/h100/apps/fdtd2d/";
const std::string kStep1 = "kernel-1-ctx_0x556127c869e0.traceg";  // fdtd_step1_kernel, 61,392 instructions

models::RunRequest trace_request(const std::string& trace, const std::string& launches = "", bool ncu = false,
                                 bool flush = true) {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.trace = trace;
  r.launches = launches;
  r.ncu = ncu;
  r.ncu_flush_caches = flush;
  return r;
}

double metric(const std::vector<std::pair<std::string, double>>& metrics, const std::string& name) {
  for (const auto& [n, v] : metrics)
    if (n == name) return v;
  FAIL("no metric " << name);
  return 0;
}
double metric(const models::LaunchResult& k, const std::string& name) { return metric(k.metrics, name); }
double metric(const models::RunResult& r, const std::string& name) { return metric(r.metrics, name); }

// Per-launch instruction lines of fdtd2d (trace_lines.csv), in launch order.
std::vector<double> fdtd_trace_lines() {
  std::ifstream in(test::shared_path(kFdtd + "trace_lines.csv"));
  std::string line;
  std::getline(in, line);  // launch,file,instruction_lines
  std::vector<double> out;
  while (std::getline(in, line)) out.push_back(std::stod(line.substr(line.rfind(',') + 1)));
  return out;
}

// A list of the same fdtd step1 trace `count` times; with distinct_streams, the copies' headers
// name streams 1, 2, ... (they overlap).
std::string repeated_step1(const std::string& tag, int count, bool distinct_streams) {
  const std::string dir = test::temp_dir(tag);
  const std::string source = test::shared_path(kFdtd + kStep1 + ".xz");
  std::ofstream list(dir + "/kernelslist.g");
  for (int i = 1; i <= count; ++i) {
    const std::string name = "kernel-" + std::to_string(i) + ".traceg";
    if (distinct_streams) {
      const std::string cmd = "xz -dc '" + source + "' | sed 's/^-cuda stream id = 0$/-cuda stream id = " +
                              std::to_string(i) + "/' > '" + dir + "/" + name + "'";
      REQUIRE(std::system(cmd.c_str()) == 0);
    } else {
      fs::copy_file(source, dir + "/" + name + ".xz");
    }
    list << name << '\n';
  }
  return dir + "/kernelslist.g";
}

}  // namespace

TEST_CASE("per-launch results: one per launch, counts add up to the totals, launches follow each other",
          "[launches]") {
  const auto r = models::simulate(trace_request(test::shared_path(kFdtd + "kernelslist.g")));
  REQUIRE(r.kernels.size() == 15);
  const auto lines = fdtd_trace_lines();
  REQUIRE(lines.size() == 15);
  std::uint64_t cycles = 0;
  for (std::size_t k = 0; k < r.kernels.size(); ++k) {
    const auto& l = r.kernels[k];
    INFO("launch " << l.launch);
    CHECK(l.launch == k + 1);
    CHECK(l.name == std::string(k % 3 == 0 ? "_Z17fdtd_step1_kerneliiPfS_S_S_i"
                                : k % 3 == 1 ? "_Z17fdtd_step2_kerneliiPfS_S_i"
                                             : "_Z17fdtd_step3_kerneliiPfS_S_i"));
    CHECK(l.grid == std::array<std::uint32_t, 3>{8, 32, 1});
    CHECK(l.block == std::array<std::uint32_t, 3>{32, 8, 1});
    CHECK(metric(l, "warp_instructions") == lines[k]);
    CHECK_FALSE(l.overlapped);
    CHECK(l.time_ms == Approx(double(l.cycles) / 1'980'000).epsilon(1e-12));  // hopper-h100: 1,980 MHz
    // One stream: each launch starts when the one before it ends (the application's view).
    CHECK(l.start_cycle == cycles);
    cycles += l.cycles;
    std::vector<std::string> names;
    for (const auto& [n, v] : l.metrics) names.push_back(n);
    CHECK(names == models::metric_names());
    CHECK(metric(l, "achieved_occupancy") > 0);
  }
  CHECK(cycles == r.cycles);
  for (const char* m : {"warp_instructions", "gld_requests", "gld_sectors", "gst_sectors", "dram_read_bytes",
                        "dram_write_bytes", "replays", "shared_bank_conflicts"}) {
    double sum = 0;
    for (const auto& l : r.kernels) sum += metric(l, m);
    CHECK(sum == metric(r, m));
  }
  // The application's view keeps caches warm: the second step1 finds its data in L2.
  CHECK(metric(r.kernels[3], "dram_read_bytes") < metric(r.kernels[0], "dram_read_bytes") / 10);
  CHECK(metric(r.kernels[3], "l2_hit_rate") > metric(r.kernels[0], "l2_hit_rate") + 5);
}

TEST_CASE("launch selection (--launches) simulates exactly the launches it names, under their own numbers", "[launches]") {
  const std::string list = test::shared_path(kFdtd + "kernelslist.g");
  const auto r = models::simulate(trace_request(list, "2,4-5", true));
  REQUIRE(r.kernels.size() == 3);
  CHECK(r.kernels[0].launch == 2);
  CHECK(r.kernels[1].launch == 4);
  CHECK(r.kernels[2].launch == 5);
  CHECK(r.kernels[0].name == "_Z17fdtd_step2_kerneliiPfS_S_i");
  CHECK(r.kernels[1].name == "_Z17fdtd_step1_kerneliiPfS_S_S_i");
  const auto lines = fdtd_trace_lines();
  CHECK(r.warp_instructions == lines[1] + lines[3] + lines[4]);
  // Under ncu's flush a launch does not depend on the ones before it: launch 4 alone counts as
  // launch 4 among all. Its time may differ (DRAM refresh follows the absolute clock), and with
  // it which of two SMs on either side of L2 reaches a line first: the one that fetches it misses
  // where the other hits (l2_cache.hpp), so L2 hits agree to a few hundred lookups.
  const auto alone = models::simulate(trace_request(list, "4", true));
  REQUIRE(alone.kernels.size() == 1);
  for (const char* m : {"warp_instructions", "gld_sectors", "l1_hit_rate", "dram_read_bytes"})
    CHECK(metric(alone.kernels[0], m) == metric(r.kernels[1], m));
  CHECK(metric(alone.kernels[0], "l2_hit_rate") == Approx(metric(r.kernels[1], "l2_hit_rate")).margin(0.5));

  for (const char* bad : {"0", "16", "3-1", "2,2", "1-3,3", "x", "1,,2", ","}) {
    INFO(bad);
    CHECK_THROWS_AS(models::simulate(trace_request(list, bad)), sim::InputError);
  }
  try {
    models::simulate(trace_request(list, "16"));
  } catch (const sim::InputError& e) {
    CHECK(std::string(e.what()) == "--launches: launch 16 does not exist: the workload has 15 launches");
  }
}

TEST_CASE("ncu mode: each launch alone from its own start, and cache control all makes every launch cold", "[launches][ncu]") {
  const std::string list = repeated_step1("ncu-repeat", 2, false);
  const auto all = models::simulate(trace_request(list, "", true, true));
  const auto none = models::simulate(trace_request(list, "", true, false));
  const auto app = models::simulate(trace_request(list));
  REQUIRE(all.kernels.size() == 2);
  REQUIRE(none.kernels.size() == 2);
  // Flushed: the second, identical launch misses exactly as the first. The first leaves dirty
  // lines that the flush writes back; they are in no launch's DRAM writes.
  for (const char* m : {"dram_read_bytes", "dram_write_bytes", "l1_hit_rate", "warp_instructions"})
    CHECK(metric(all.kernels[1], m) == metric(all.kernels[0], m));
  CHECK(metric(all.kernels[1], "l2_hit_rate") == Approx(metric(all.kernels[0], "l2_hit_rate")).margin(0.5));
  CHECK(metric(all.kernels[0], "dram_read_bytes") > 100'000);
  // Warm (none): the second launch finds the first's lines in L2.
  CHECK(metric(none.kernels[0], "dram_read_bytes") == metric(all.kernels[0], "dram_read_bytes"));
  CHECK(metric(none.kernels[1], "dram_read_bytes") < metric(none.kernels[0], "dram_read_bytes") / 10);
  CHECK(metric(none.kernels[1], "l2_hit_rate") > metric(none.kernels[0], "l2_hit_rate") + 5);
  // ncu times launches alone: the totals are their sums, the flush's wait is in none of them.
  for (const auto* r : {&all, &none}) {
    CHECK(r->ncu);
    CHECK(r->cycles == r->kernels[0].cycles + r->kernels[1].cycles);
    CHECK(metric(*r, "dram_read_bytes") ==
          metric(r->kernels[0], "dram_read_bytes") + metric(r->kernels[1], "dram_read_bytes"));
  }
  CHECK(all.kernels[1].start_cycle > all.kernels[0].start_cycle + all.kernels[0].cycles);  // the flush's write-backs
  // The application's view of the same list is none's, launch by launch (same stream, warm).
  for (std::size_t k = 0; k < 2; ++k) CHECK(metric(app.kernels[k], "l2_hit_rate") == metric(none.kernels[k], "l2_hit_rate"));
  fs::remove_all(fs::path(list).parent_path());
}

TEST_CASE("ncu mode on a single library kernel is the default run", "[launches][ncu]") {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.kernel = "writeOffset";
  r.kernel_params = {"n=262144", "offset=1"};
  const auto plain = models::simulate(r);
  r.ncu = true;
  const auto ncu = models::simulate(r);
  CHECK(ncu.cycles == plain.cycles);
  CHECK(ncu.metrics == plain.metrics);
}

TEST_CASE("launches of different streams overlap: counts are each launch's own, cycle books are not", "[launches]") {
  const std::string list = repeated_step1("overlap", 2, true);
  const auto r = models::simulate(trace_request(list));
  REQUIRE(r.kernels.size() == 2);
  const auto lines = fdtd_trace_lines();
  for (const auto& k : r.kernels) {
    CHECK(k.overlapped);
    CHECK(metric(k, "warp_instructions") == lines[0]);
    CHECK(metric(k, "gld_requests") * 2 == metric(r, "gld_requests"));
    CHECK(std::isnan(metric(k, "achieved_occupancy")));
    CHECK(std::isnan(metric(k, "stall_idle")));
  }
  CHECK(r.kernels[1].start_cycle < r.kernels[0].start_cycle + r.kernels[0].cycles);
  CHECK(metric(r.kernels[0], "dram_read_bytes") + metric(r.kernels[1], "dram_read_bytes") ==
        metric(r, "dram_read_bytes"));
  // --ncu serialises them: no overlap, every metric defined.
  const auto ncu = models::simulate(trace_request(list, "", true));
  for (const auto& k : ncu.kernels) {
    CHECK_FALSE(k.overlapped);
    CHECK(metric(k, "achieved_occupancy") > 0);
  }
  fs::remove_all(fs::path(list).parent_path());
}
