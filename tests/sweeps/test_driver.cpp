// The parallel driver and the journal: determinism across -j, failed points, resume, damage.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>

#include "sweeps/driver.hpp"
#include "sweeps/journal.hpp"
#include "sweeps/result_record.hpp"
#include "tests/sweeps/sweep_test_helpers.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

std::vector<sweeps::Point> two_study_points(const std::string& tag) {
  auto dir = test::temp_dir(tag);
  return sweeps::enumerate_points(sweeps::parse_spec(test::write_spec(dir, "two.ini", test::kTwoStudySpec)));
}

// Everything but wall_s, bit for bit (NaN equal to NaN).
void require_same_results(const std::vector<sweeps::PointResult>& a, const std::vector<sweeps::PointResult>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("point " << a[i].index);
    CHECK(a[i].index == b[i].index);
    CHECK(a[i].status == b[i].status);
    CHECK(a[i].message == b[i].message);
    CHECK(a[i].cycles == b[i].cycles);
    CHECK(sweeps::encode_result({a[i].index, 0, "", 0, a[i].time_ms, a[i].metrics, 0, a[i].resolved_params, a[i].texts}) ==
          sweeps::encode_result({b[i].index, 0, "", 0, b[i].time_ms, b[i].metrics, 0, b[i].resolved_params, b[i].texts}));
  }
}

}  // namespace

TEST_CASE("results do not depend on the number of threads", "[sweep][driver]") {
  auto points = two_study_points("driver-j");
  sweeps::DriverOptions one, four;
  one.jobs = 1;
  four.jobs = 4;
  auto a = sweeps::run_points(points, test::synthetic_runner(), one);
  auto b = sweeps::run_points(points, test::synthetic_runner(), four);
  CHECK_FALSE(a.interrupted);
  CHECK(a.ran == points.size());
  require_same_results(a.results, b.results);
}

TEST_CASE("a point the simulator refuses is recorded with its reason and the sweep goes on", "[sweep][driver]") {
  auto points = two_study_points("driver-fail");
  sweeps::DriverOptions o;
  o.jobs = 2;
  auto out = sweeps::run_points(points, test::synthetic_runner(), o);
  REQUIRE(out.results.size() == points.size());
  CHECK(out.failed == 16);  // block = 1024 > 512 is half of the first study
  const auto& r = out.results[8];  // kepler, block 1024, unroll 1, offset 0
  CHECK(r.status == sweeps::kPointInputError);
  CHECK(r.message.find("exceeds the 512 threads per block") != std::string::npos);
  CHECK(std::isnan(r.metrics[0]));
  CHECK(out.results[0].status == sweeps::kPointOk);

  // Any exception type becomes a status, never an abort of the sweep.
  auto throwing = [](const models::RunRequest&) -> models::RunResult { throw std::runtime_error("boom"); };
  auto bad = sweeps::run_points(points, throwing, o);
  CHECK(bad.failed == points.size());
  CHECK(bad.results[0].status == sweeps::kPointInternalError);

  // Whether the sweep as a whole failed (the CLI's exit status): not while one point succeeded;
  // "refused" (exit 2) only when every failure was a refused input.
  CHECK_FALSE(sweeps::every_point_failed(out.results));
  CHECK_FALSE(sweeps::every_point_failed({}));
  const auto internal = sweeps::every_point_failed(bad.results);
  REQUIRE(internal);
  CHECK_FALSE(internal->refused);
  CHECK(internal->summary() == "every point failed; point 0: internal error: boom");
  std::vector<sweeps::PointResult> refused(out.results.begin() + 8, out.results.begin() + 16);
  std::reverse(refused.begin(), refused.end());  // the first failure is the lowest index, not the first row
  const auto all_refused = sweeps::every_point_failed(refused);
  REQUIRE(all_refused);
  CHECK(all_refused->refused);
  CHECK(all_refused->index == 8);
  CHECK(all_refused->first == out.results[8].message);
  refused.front().status = sweeps::kPointDeadlock;
  CHECK_FALSE(sweeps::every_point_failed(refused)->refused);
}

TEST_CASE("a stopped sweep keeps what finished in the journal and resumes to the same results", "[sweep][driver]") {
  auto points = two_study_points("driver-resume");
  auto dir = test::temp_dir("driver-resume-j");
  sweeps::DriverOptions o;
  o.jobs = 2;
  o.journal = std::filesystem::path(dir) / "out.h5.journal";
  o.sweep_fingerprint = 42;
  std::atomic<bool> stop{false};
  o.stop = &stop;
  std::atomic<int> calls{0};
  auto stopping = [&](const models::RunRequest& r) {
    if (++calls == 10) stop = true;  // like SIGINT arriving mid-sweep
    return sweeps::synthetic_simulate(r);
  };
  auto first = sweeps::run_points(points, stopping, o);
  CHECK(first.interrupted);
  CHECK(first.results.size() >= 10);
  CHECK(first.results.size() < points.size());

  stop = false;
  std::atomic<int> second_calls{0};
  auto counting = [&](const models::RunRequest& r) {
    ++second_calls;
    return sweeps::synthetic_simulate(r);
  };
  auto second = sweeps::run_points(points, counting, o);
  CHECK_FALSE(second.interrupted);
  CHECK(second.resumed == first.results.size());
  CHECK(std::size_t(second_calls) == points.size() - first.results.size());

  sweeps::DriverOptions plain;
  plain.jobs = 1;
  require_same_results(second.results, sweeps::run_points(points, test::synthetic_runner(), plain).results);

  // Another sweep's journal is refused rather than mixed in.
  o.sweep_fingerprint = 43;
  CHECK_THROWS_WITH(sweeps::run_points(points, test::synthetic_runner(), o), Catch::Contains("different sweep"));
}

TEST_CASE("damaged or cut-short journal lines are ignored, not fatal", "[sweep][journal]") {
  auto dir = test::temp_dir("journal-damage");
  auto path = std::filesystem::path(dir) / "j";
  const std::size_t metrics = models::metric_names().size();
  sweeps::PointResult a{3, 0, "ok", 100, 0.5, std::vector<double>(metrics, 1.25), 0.01, "", {}};
  sweeps::PointResult b{5, 1, "tab\there\nnewline \\ slash", 0, NAN, std::vector<double>(metrics, NAN), 0.02, "n=1 grid=2",
                        {"dram-bandwidth", "DRAM at 79%,\ta \"tab\"\nand a newline", "registers"}};
  {
    sweeps::Journal j(path, 9, metrics);
    j.append(a);
    j.append(b);
  }
  {
    std::ofstream out(path, std::ios::app);
    std::string line = sweeps::encode_result({7, 0, "", 1, 1, std::vector<double>(metrics, 2), 0, "", {}});
    std::string flipped = line;
    flipped[2] = flipped[2] == '1' ? '2' : '1';
    out << "garbage line\n" << flipped << line.substr(0, line.size() / 2);  // killed mid-write
  }
  sweeps::Journal j(path, 9, metrics);
  CHECK(j.finished().size() == 2);
  CHECK(j.damaged_lines() == 3);
  REQUIRE(j.finished().count(5));
  CHECK(j.finished().at(5).message == b.message);
  CHECK(j.finished().at(5).resolved_params == "n=1 grid=2");
  CHECK(j.finished().at(5).texts == b.texts);  // the limiter's words, escapes and all
  CHECK(j.finished().at(3).texts == std::vector<std::string>(models::text_metric_names().size()));
  CHECK(std::isnan(j.finished().at(5).time_ms));
  CHECK(j.finished().at(3).metrics == a.metrics);
  // The next record after a cut-short line still lands on a line of its own.
  j.append({8, 0, "", 1, 1, std::vector<double>(metrics, 3), 0, "", {}});
  sweeps::Journal again(path, 9, metrics);
  CHECK(again.finished().count(8) == 1);
}

TEST_CASE("a sampled point's journal line keeps its sampling numbers; other lines have none", "[sweep][journal][sampling]") {
  const std::size_t metrics = models::metric_names().size();
  sweeps::PointResult sampled{4, 0, "", 1000, 0.5, std::vector<double>(metrics, 1.5), 0.1, "n=1", {}};
  sampled.sampled = 1;
  sampled.detail_fraction = 0.125;
  sampled.time_error_pct = 0.75;
  auto back = sweeps::decode_result(sweeps::encode_result(sampled), metrics);
  REQUIRE(back);
  CHECK(back->sampled == 1);
  CHECK(back->detail_fraction == 0.125);
  CHECK(back->time_error_pct == 0.75);
  sweeps::PointResult full = sampled;
  full.sampled = -1;
  const std::string line = sweeps::encode_result(full);
  // Eight fields, one per text metric and the checksum, as without sampling.
  CHECK(std::size_t(std::count(line.begin(), line.end(), '\t')) == 8 + models::text_metric_names().size());
  back = sweeps::decode_result(line, metrics);
  REQUIRE(back);
  CHECK(back->sampled == -1);
}

TEST_CASE("a file that is not a journal at all is named as such, not as another sweep's", "[sweep][journal]") {
  auto dir = test::temp_dir("journal-junk");
  auto path = std::filesystem::path(dir) / "j";
  std::ofstream(path, std::ios::binary) << "PK\x03\x04 some zip archive\n";
  const std::size_t metrics = models::metric_names().size();
  CHECK_THROWS_WITH(sweeps::Journal(path, 9, metrics), Catch::Contains(path.string() + ":1") &&
                                                           Catch::Contains("not a warpsim sweep journal") &&
                                                           Catch::Contains("'PK?? some zip archive'"));
  { sweeps::Journal ours(path.string() + "2", 9, metrics); }
  CHECK_THROWS_WITH(sweeps::Journal(path.string() + "2", 10, metrics),
                    Catch::Contains("different sweep") && !Catch::Contains("not a warpsim"));
}
