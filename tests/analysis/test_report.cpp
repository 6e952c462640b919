// warpsim report: best/worst/sensitivity checked against values computed here straight from the
// result file's columns, on a real smoke.ini sweep, a two-study synthetic sweep with failures,
// and shards; the --json form; files that are not sweep results.
#include <catch2/catch.hpp>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/report/result_table.hpp"
#include "analysis/report/sweep_report.hpp"
#include "sim/errors.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/h5_util.hpp"
#include "sweeps/result_file.hpp"
#include "tests/sweeps/sweep_test_helpers.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;
namespace pt = boost::property_tree;

namespace {

// The file's columns, read with the sweeps' own HDF5 helpers, not with the report's reader.
struct Columns {
  std::vector<std::int64_t> point, status;
  std::vector<double> time_ms;
  std::vector<std::string> study, arch;
  std::map<std::string, std::vector<double>> axis;  // numeric axes as double
};

Columns read_columns(const fs::path& file, const std::vector<std::string>& axes) {
  auto f = sweeps::h5::open_file_readonly(file.string());
  Columns c;
  c.point = sweeps::h5::read_int64(f, "point");
  c.status = sweeps::h5::read_int64(f, "status");
  c.time_ms = sweeps::h5::read_double(f, "time_ms");
  c.study = sweeps::h5::read_strings(f, "study");
  c.arch = sweeps::h5::read_strings(f, "arch");
  for (const auto& a : axes) c.axis[a] = sweeps::h5::read_double(f, a);
  return c;
}

struct Expected {
  std::int64_t best = -1, worst = -1;  // point indices
  std::size_t ok = 0, failed = 0;
  std::map<std::string, double> ratio;  // per axis: max/min time along the line through best
};

// Independent of analysis/: a plain scan over the rows of one (study, arch).
Expected expected_for(const Columns& c, const std::string& study, const std::string& arch,
                      const std::vector<std::string>& axes) {
  Expected e;
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < c.point.size(); ++i)
    if (c.study[i] == study && c.arch[i] == arch) rows.push_back(i);
  std::size_t best = 0, worst = 0;
  bool any = false;
  for (auto i : rows) {
    if (c.status[i] != 0) {
      ++e.failed;
      continue;
    }
    ++e.ok;
    if (!any || c.time_ms[i] < c.time_ms[best]) best = i;
    if (!any || c.time_ms[i] > c.time_ms[worst]) worst = i;
    any = true;
  }
  if (!any) return e;
  e.best = c.point[best];
  e.worst = c.point[worst];
  for (const auto& a : axes) {
    double lo = INFINITY, hi = -INFINITY;
    int ok_on_line = 0;
    for (auto i : rows) {
      bool on_line = c.status[i] == 0;
      for (const auto& other : axes)
        if (other != a) on_line = on_line && c.axis.at(other)[i] == c.axis.at(other)[best];
      if (!on_line) continue;
      ++ok_on_line;
      lo = std::min(lo, c.time_ms[i]);
      hi = std::max(hi, c.time_ms[i]);
    }
    e.ratio[a] = ok_on_line >= 2 ? hi / lo : NAN;  // one point is no spread
  }
  return e;
}

const analysis::GroupReport& group(const analysis::SweepReport& r, const std::string& study, const std::string& arch) {
  for (const auto& g : r.groups)
    if (g.study == study && g.arch == arch) return g;
  FAIL("no group " << study << " / " << arch);
  return r.groups.front();
}

void check_group(const analysis::GroupReport& g, const Expected& e) {
  CHECK(g.ok == e.ok);
  CHECK(g.failed == e.failed);
  REQUIRE(g.best);
  CHECK(g.best->point == e.best);
  CHECK(g.worst->point == e.worst);
  REQUIRE(g.sensitivity.size() == e.ratio.size());
  for (const auto& s : g.sensitivity) {
    INFO("axis " << s.axis);
    if (std::isnan(e.ratio.at(s.axis))) CHECK(std::isnan(s.ratio));
    else CHECK(s.ratio == Approx(e.ratio.at(s.axis)).epsilon(1e-12));
  }
}

pt::ptree parse_json(const std::string& text) {
  std::istringstream in(text);
  pt::ptree tree;
  pt::read_json(in, tree);
  return tree;
}

}  // namespace

TEST_CASE("report of a real smoke.ini sweep: best, worst and sensitivity match the columns", "[report]") {
  auto dir = fs::path(test::temp_dir("report-smoke"));
  auto file = dir / "smoke.h5";
  auto sweep = test::run_warpsim("sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini -o " +
                                 file.string() + " -j 2 --progress none");
  REQUIRE(sweep.exit_code == 0);

  const std::vector<std::string> axes = {"block", "unroll"};
  Expected e = expected_for(read_columns(file, axes), "smoke", "hopper-h100", axes);
  auto report = analysis::build_report(analysis::read_result_table(file));
  REQUIRE(report.groups.size() == 1);
  CHECK(report.groups[0].axes == axes);
  CHECK(report.groups[0].kernel == "readOffsetUnroll");
  check_group(report.groups[0], e);
  CHECK(report.shard.empty());

  SECTION("the --json form says the same") {
    auto r = test::run_warpsim("report " + file.string() + " --json");
    REQUIRE(r.exit_code == 0);
    auto json = parse_json(r.out);
    CHECK(json.get<std::string>("schema") == "warpsim-sweep/1");
    CHECK(json.get<int>("points") == 12);
    const auto& g = json.get_child("groups").front().second;
    CHECK(g.get<std::string>("study") == "smoke");
    CHECK(g.get<std::int64_t>("best.point") == e.best);
    CHECK(g.get<std::int64_t>("worst.point") == e.worst);
    CHECK(g.get_child("best.params").size() == 2);
    CHECK(g.get_child("best.metrics").count("l2_hit_rate") == 1);
    for (const auto& [key, s] : g.get_child("sensitivity"))
      CHECK(s.get<double>("ratio") == Approx(e.ratio.at(s.get<std::string>("axis"))).epsilon(1e-12));
  }
  SECTION("the table names the best point and each axis") {
    auto r = test::run_warpsim("report " + file.string());
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("== study smoke: hopper-h100, readOffsetUnroll") != std::string::npos);
    CHECK(r.out.find("  best  ") != std::string::npos);
    CHECK(r.out.find("sensitivity of time_ms") != std::string::npos);
    CHECK(r.out.find("\n  unroll ") != std::string::npos);
  }
  SECTION("a shard is reported from its own rows") {
    auto shard = dir / "shard.h5";
    REQUIRE(test::run_warpsim("sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini -o " +
                              shard.string() + " -j 2 --shard 1/2 --progress none")
                .exit_code == 0);
    Expected es = expected_for(read_columns(shard, axes), "smoke", "hopper-h100", axes);
    auto rs = analysis::build_report(analysis::read_result_table(shard));
    CHECK(rs.shard == "1/2");
    CHECK(rs.points == 6);
    CHECK(rs.total_points == 12);
    REQUIRE(rs.groups.size() == 1);
    check_group(rs.groups[0], es);
    auto text = test::run_warpsim("report " + shard.string());
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("shard 1/2 of a 12-point sweep") != std::string::npos);
  }
  SECTION("merged shards report the same best, worst and spreads as the whole sweep") {
    const std::string smoke = std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini";
    for (const char* s : {"0/2", "1/2"})
      REQUIRE(test::run_warpsim("sweep " + smoke + " -o " + (dir / ("s" + std::string(1, s[0]) + ".h5")).string() +
                                " --shard " + s + " --progress none")
                  .exit_code == 0);
    REQUIRE(test::run_warpsim("sweep merge " + (dir / "merged.h5").string() + " " + (dir / "s1.h5").string() + " " +
                              (dir / "s0.h5").string())
                .exit_code == 0);
    auto rm = analysis::build_report(analysis::read_result_table(dir / "merged.h5"));
    REQUIRE(rm.groups.size() == 1);
    check_group(rm.groups[0], e);
  }
  fs::remove_all(dir);
}

TEST_CASE("report of two studies with failures: groups per arch, failed points with a reason", "[report]") {
  auto dir = fs::path(test::temp_dir("report-two"));
  test::write_two_study_results(dir, dir / "two.h5");

  auto report = analysis::build_report(analysis::read_result_table(dir / "two.h5"));
  REQUIRE(report.groups.size() == 3);  // unroll on kepler, unroll on hopper, persist on hopper
  const std::vector<std::string> unroll_axes = {"block", "unroll", "offset"};
  const std::vector<std::string> persist_axes = {"hit_ratio", "persist_bytes"};
  auto columns = read_columns(dir / "two.h5", {"block", "unroll", "offset", "hit_ratio", "persist_bytes"});
  for (const char* arch : {"kepler-k20x", "hopper-h100"}) {
    const auto& g = group(report, "unroll", arch);
    CHECK(g.axes == unroll_axes);  // arch is an axis of the study but a group key of the report
    check_group(g, expected_for(columns, "unroll", arch, unroll_axes));
    CHECK(g.failed == 8);  // block 1024 > max_threads_per_block 512: 4 unroll x 2 offset
    REQUIRE(g.first_failure);
    CHECK(g.first_failure->status != 0);
    CHECK(!g.first_failure->message.empty());
    CHECK(g.first_failure->parameters.at(0).text == "1024");
    // Along block, the line through the best point has a failed point: 1 ok of 2.
    CHECK(g.sensitivity.at(0).points == 2);
    CHECK(g.sensitivity.at(0).ok == 1);
    CHECK(std::isnan(g.sensitivity.at(0).ratio));
  }
  check_group(group(report, "persist", "hopper-h100"), expected_for(columns, "persist", "hopper-h100", persist_axes));
  CHECK(report.failed == 16);

  auto r = test::run_warpsim("report " + (dir / "two.h5").string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("failed: 8 points; e.g. point") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("report refuses files that are not sweep results: exit 2, the file named", "[report]") {
  auto dir = fs::path(test::temp_dir("report-bad"));
  auto expect_refused = [&](const fs::path& file, const std::string& cause) {
    auto r = test::run_warpsim("report " + file.string());
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(file.string()) != std::string::npos);
    CHECK(r.err.find(cause) != std::string::npos);
    CHECK(r.err.find("HDF5-DIAG") == std::string::npos);  // no raw HDF5 error stack
    CHECK_THROWS_AS(analysis::read_result_table(file), sim::InputError);
  };
  SECTION("missing") { expect_refused(dir / "missing.h5", "no such file"); }
  SECTION("a text file") {
    std::ofstream(dir / "notes.h5") << "not hdf5\n";
    expect_refused(dir / "notes.h5", "not an HDF5 file");
  }
  SECTION("HDF5 without the schema attribute") {
    {
      auto f = sweeps::h5::create_file((dir / "plain.h5").string());
      sweeps::h5::write_int64(f, "x", {2}, {1, 2});
    }
    expect_refused(dir / "plain.h5", "not a warpsim sweep result");
  }
  SECTION("a result whose /config holds no spec") {
    {
      auto f = sweeps::h5::create_file((dir / "noconfig.h5").string());
      sweeps::h5::set_string_attribute(f, "schema", sweeps::kResultSchema);
      sweeps::h5::write_strings(f, "config", {0}, {});
    }
    expect_refused(dir / "noconfig.h5", "/config is not one string");
  }
  SECTION("a truncated result file") {
    REQUIRE(test::run_warpsim("sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini -o " +
                              (dir / "whole.h5").string() + " --progress none")
                .exit_code == 0);
    std::ifstream in(dir / "whole.h5", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / "cut.h5", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    expect_refused(dir / "cut.h5", "truncated");
  }
  fs::remove_all(dir);
}

TEST_CASE("report says where along each axis the limiter changes, from the limiter column", "[report][bound]") {
  auto dir = fs::path(test::temp_dir("report-limiter"));
  test::write_two_study_results(dir, dir / "two.h5");
  auto f = sweeps::h5::open_file_readonly((dir / "two.h5").string());
  const std::vector<std::string> limiter = sweeps::h5::read_strings(f, "limiter");
  const std::vector<std::string> axes = {"block", "unroll", "offset"};
  const Columns c = read_columns(dir / "two.h5", axes);
  auto report = analysis::build_report(analysis::read_result_table(dir / "two.h5"));
  const auto& g = group(report, "unroll", "hopper-h100");
  REQUIRE(g.best);
  std::size_t best = 0;
  while (c.point[best] != g.best->point) ++best;
  REQUIRE(g.limiters.size() == axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    INFO("axis " << axes[a]);
    // Independently: the ok points on the line through the best, in file order, runs of one limiter.
    std::vector<std::pair<std::string, std::size_t>> runs;  // limiter, points
    for (std::size_t i = 0; i < c.point.size(); ++i) {
      bool on_line = c.study[i] == "unroll" && c.arch[i] == "hopper-h100" && c.status[i] == 0;
      for (const auto& other : axes)
        if (other != axes[a]) on_line = on_line && c.axis.at(other)[i] == c.axis.at(other)[best];
      if (!on_line) continue;
      if (runs.empty() || runs.back().first != limiter[i]) runs.emplace_back(limiter[i], 0);
      ++runs.back().second;
    }
    const auto& spans = g.limiters[a].spans;
    CHECK(g.limiters[a].axis == axes[a]);
    REQUIRE(spans.size() == runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k) {
      CHECK(spans[k].limiter == runs[k].first);
      CHECK(spans[k].points == runs[k].second);
      CHECK_FALSE(spans[k].evidence.empty());
    }
  }
  auto text = test::run_warpsim("report " + (dir / "two.h5").string());
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("\n  limiter along each axis, the other axes held at the best point:\n    block ") !=
        std::string::npos);
  auto json = parse_json(test::run_warpsim("report " + (dir / "two.h5").string() + " --json").out);
  for (const auto& [key, group] : json.get_child("groups"))
    for (const auto& [k, axis] : group.get_child("limiters"))
      for (const auto& [s, span] : axis.get_child("spans")) CHECK(span.get<std::size_t>("points") >= 1);
  fs::remove_all(dir);
}
