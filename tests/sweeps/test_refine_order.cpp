// Sampled points the sampling cannot order are simulated again in full (sweeps/refine_order.hpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <map>

#include "sweeps/h5_util.hpp"
#include "sweeps/merge.hpp"
#include "sweeps/refine_order.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/slurm_script.hpp"
#include "sweeps/sweep_run.hpp"
#include "tests/sweeps/sweep_test_helpers.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

// Study `near`: full times 1.000, 1.002, 1.030, 1.060 and 1.100 ms; sampled, the first two come
// the other way round (1.003 and 1.001), each within the 0.5% the runner states. Study `far`:
// 1.001, 1.5 and 2.0 ms, apart from each other; its first point lies within 0.5% of near's first
// two, but in another study.
const char* kSpec = R"([sweep]
sample = on

[study near]
arch = hopper-h100
kernel = readOffset
n = 1M, 2M, 3M, 4M, 5M

[study far]
arch = hopper-h100
kernel = readOffset
offset = 0, 1, 2
)";
const double kFull[] = {1.000, 1.002, 1.030, 1.060, 1.100, 1.001, 1.5, 2.0};
const double kSampled[] = {1.003, 1.001, 1.032, 1.062, 1.102, 1.003, 1.503, 2.004};

struct Fixture {
  fs::path dir = test::temp_dir("refine-order");
  fs::path spec_path = test::write_spec(dir, "near.ini", kSpec);
  sweeps::SweepSpec spec = sweeps::parse_spec(spec_path);
  std::vector<sweeps::Point> points = sweeps::enumerate_points(spec);
  std::map<std::string, std::size_t> index_of;  // a point's study and parameters -> its index
  std::atomic<int> full_runs{0};

  Fixture() {
    for (const auto& p : points) index_of[key(p.request)] = p.index;
  }
  static std::string key(const models::RunRequest& r) {
    std::string k;
    for (const auto& kv : r.kernel_params) k += kv + " ";
    return k;
  }
  sweeps::PointRunner runner() {
    return [this](const models::RunRequest& r) {
      models::RunResult out = sweeps::synthetic_simulate(r);
      const std::size_t i = index_of.at(key(r));
      out.time_ms = r.sample ? kSampled[i] : kFull[i];
      out.cycles = static_cast<std::uint64_t>(out.time_ms * 1e6);
      out.sampling = {};
      if (r.sample) out.sampling = {true, true, 0.25, 0.5, ""};
      else ++full_runs;
      return out;
    };
  }
  // The whole sweep run to dir/whole.h5 on `jobs` threads; its options, for the next run.
  sweeps::SweepRunOptions whole_sweep(int jobs) {
    sweeps::SweepRunOptions o;
    o.spec = spec_path;
    o.jobs = jobs;
    o.output = dir / "whole.h5";
    REQUIRE(sweeps::run_sweep(o, runner()) == sweeps::SweepOutcome::Complete);
    return o;
  }
  std::vector<sweeps::PointResult> sampled_results() {
    sweeps::DriverOptions o;
    o.jobs = 2;
    return sweeps::run_points(points, runner(), o).results;
  }
};

// Two result files' points: the same times, sampling marks and messages.
void check_same_points(const sweeps::ResultFileContents& a, const sweeps::ResultFileContents& b) {
  REQUIRE(a.results.size() == b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    INFO("point " << i);
    CHECK(a.results[i].time_ms == b.results[i].time_ms);
    CHECK(a.results[i].sampled == b.results[i].sampled);
    CHECK(a.results[i].message == b.results[i].message);
  }
}

}  // namespace

TEST_CASE("the points sampling cannot order are those within their stated errors of another of their study",
          "[sweep][sampling]") {
  Fixture f;
  REQUIRE(f.points.size() == 8);
  auto results = f.sampled_results();
  CHECK(sweeps::unordered_points(f.points, results) == std::vector<std::size_t>{0, 1});
  // A point run in full (sampled 0, no error) is not simulated again, but bounds its neighbours.
  results[1].sampled = 0;
  results[1].time_error_pct = 0;
  CHECK(sweeps::unordered_points(f.points, results) == std::vector<std::size_t>{0});
  // A failed point orders nothing.
  results[1].status = sweeps::kPointInputError;
  CHECK(sweeps::unordered_points(f.points, results).empty());
  // Touching intervals count as meeting: 1.000 +- 0.5% reaches 1.005.
  results = f.sampled_results();
  results[0].time_ms = 1.0;
  results[1].time_ms = 1.0 * 1.005 / 0.995;
  CHECK(sweeps::unordered_points(f.points, results) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("refine_order runs those points in full and leaves every study in the full simulation's order",
          "[sweep][sampling]") {
  Fixture f;
  auto results = f.sampled_results();
  CHECK(results[0].time_ms > results[1].time_ms);  // sampled, the order is wrong
  sweeps::DriverOptions o;
  o.jobs = 2;
  auto outcome = sweeps::refine_order(f.points, results, f.runner(), o);
  CHECK(outcome.refined == 2);
  CHECK_FALSE(outcome.interrupted);
  CHECK(f.full_runs == 2);
  for (std::size_t i = 0; i < results.size(); ++i) {
    INFO("point " << i);
    const bool again = i < 2;
    CHECK(results[i].index == i);
    CHECK(results[i].time_ms == (again ? kFull[i] : kSampled[i]));
    CHECK(results[i].sampled == (again ? 0 : 1));
    CHECK(results[i].time_error_pct == (again ? 0 : 0.5));
    CHECK(results[i].detail_fraction == (again ? 1 : 0.25));
    CHECK((results[i].message.rfind("sampling: simulated in full", 0) == 0) == again);
  }
  for (std::size_t i = 0; i + 1 < 5; ++i) CHECK(results[i].time_ms < results[i + 1].time_ms);
  // Once in order, nothing is left to run.
  CHECK(sweeps::unordered_points(f.points, results).empty());
}

TEST_CASE("a sweep stopped while it runs points again in full resumes to the same file", "[sweep][sampling]") {
  Fixture f;
  sweeps::SweepRunOptions o = f.whole_sweep(1);

  std::atomic<bool> stop{false};
  o.stop = &stop;
  o.output = f.dir / "stopped.h5";
  auto base = f.runner();
  auto stopping = [&](const models::RunRequest& r) {
    if (!r.sample) stop = true;  // the first point simulated again finishes, the second never starts
    return base(r);
  };
  CHECK(sweeps::run_sweep(o, stopping) == sweeps::SweepOutcome::Interrupted);
  CHECK_FALSE(fs::exists(o.output));
  CHECK(fs::exists(sweeps::journal_path(o.output)));
  CHECK(fs::exists(sweeps::journal_path(o.output, ".full")));
  stop = false;
  const int before = f.full_runs;
  CHECK(sweeps::run_sweep(o, stopping) == sweeps::SweepOutcome::Complete);
  CHECK(f.full_runs == before + 1);  // only the point that had not finished
  CHECK_FALSE(fs::exists(sweeps::journal_path(o.output)));
  CHECK_FALSE(fs::exists(sweeps::journal_path(o.output, ".full")));

  const auto a = sweeps::read_result_file(f.dir / "whole.h5");
  check_same_points(a, sweeps::read_result_file(o.output));
  CHECK(a.results[0].time_ms == kFull[0]);
  CHECK(a.results[1].time_ms == kFull[1]);
}

TEST_CASE("sweep merge simulates again what only the whole sweep can order, as one process does",
          "[sweep][sampling][merge]") {
  Fixture f;
  sweeps::SweepRunOptions o = f.whole_sweep(2);
  // Points 0 and 1, the pair to order, fall in different shards: neither shard runs them again.
  std::vector<fs::path> shards;
  for (std::size_t i = 0; i < 2; ++i) {
    o.shard = sweeps::Shard{i, 2};
    o.output = f.dir / ("shard" + std::to_string(i) + ".h5");
    shards.push_back(o.output);
    REQUIRE(sweeps::run_sweep(o, f.runner()) == sweeps::SweepOutcome::Complete);
  }
  CHECK(f.full_runs == 2);  // the whole sweep's
  for (const auto& r : sweeps::read_result_file(shards[0]).results) CHECK(r.sampled == 1);
  sweeps::DriverOptions full;
  full.jobs = 2;
  auto merged = sweeps::merge_result_files(f.dir / "merged.h5", shards, "merge", f.runner(), full);
  CHECK_FALSE(merged.interrupted);
  CHECK(f.full_runs == 4);
  CHECK_FALSE(fs::exists(sweeps::journal_path(f.dir / "merged.h5", ".full")));
  check_same_points(sweeps::read_result_file(f.dir / "whole.h5"), sweeps::read_result_file(f.dir / "merged.h5"));

  // Shards of another build: their points cannot be simulated again here, so the merge refuses.
  for (const auto& shard : shards) {
    hid_t file = H5Fopen(shard.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(file >= 0);
    H5Adelete(file, "git_commit");
    sweeps::h5::set_string_attribute(file, "git_commit", "another-build");
    H5Fclose(file);
  }
  CHECK_THROWS_WITH(sweeps::merge_result_files(f.dir / "other.h5", shards, "merge", f.runner(), full),
                    Catch::Contains("not the build"));
  CHECK_FALSE(fs::exists(f.dir / "other.h5"));
}

TEST_CASE("a Slurm merge job gets a task's CPUs when the sweep samples, one otherwise", "[sweep][sampling][slurm]") {
  sweeps::SlurmOptions o;
  o.warpsim = "/bin/warpsim";
  o.spec = "s.ini";
  o.output = "s.h5";
  o.cpus_per_task = 8;
  auto merge_line = [](const std::string& script) {
    const auto at = script.find("merge_job=$(sbatch");
    return script.substr(at, script.find('\n', at) - at);
  };
  CHECK_THAT(merge_line(sweeps::slurm_submit_script(o)), Catch::Contains("--cpus-per-task=1 "));
  o.samples = true;
  CHECK_THAT(merge_line(sweeps::slurm_submit_script(o)), Catch::Contains("--cpus-per-task=8 "));
}
