// The h100-apps table: every launch of the six programs beside its ncu row, the counts exact;
// malformed copies of its data are input errors naming file and line, never skipped rows; the
// correlation plot holds every launch.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/validation/correlation_plot.hpp"
#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Points validation_data_dir() at a copy of the shipped h100-apps data for as long as it lives.
class BrokenCopy {
 public:
  BrokenCopy() : dir_(test::temp_dir("apps-data")) {
    fs::copy(analysis::validation_data_dir() / "h100-apps", fs::path(dir_) / "h100-apps", fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(dir_))
      fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    setenv("WARPSIM_DATA_DIR", dir_.c_str(), 1);
  }
  ~BrokenCopy() {
    unsetenv("WARPSIM_DATA_DIR");
    fs::remove_all(dir_);
  }
  fs::path file(const std::string& relative) const { return fs::path(dir_) / "h100-apps" / relative; }
  // Replaces the first `from` in the file with `to`.
  void edit(const std::string& relative, const std::string& from, const std::string& to) const {
    std::string text = read_text(file(relative));
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(file(relative), std::ios::binary) << text;
  }
  // Drops line `n` (1-based) of the file.
  void drop_line(const std::string& relative, int n) const {
    std::istringstream in(read_text(file(relative)));
    std::string line, out;
    for (int i = 1; std::getline(in, line); ++i)
      if (i != n) out += line + "\n";
    std::ofstream(file(relative), std::ios::binary) << out;
  }

 private:
  std::string dir_;
};

std::string table_error() {
  try {
    analysis::run_validation({}, "h100-apps");
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("h100-apps: every launch beside its ncu row, instructions, requests and sectors exact", "[validation][apps]") {
  auto tables = analysis::run_validation({}, "h100-apps");
  REQUIRE(tables.size() == 1);
  const auto& t = tables[0];
  std::map<std::string, double> summary(t.summary.begin(), t.summary.end());
  CHECK(summary.at("launches") == 147);
  CHECK(t.time_points.size() == 147);
  std::size_t exact = 0, times = 0, cache_rows = 0, occupancy_rows = 0;
  for (const auto& r : t.rows) {
    INFO(r.quantity << ": reference " << r.reference << ", simulated " << r.simulated);
    if (r.tolerance.kind == analysis::Tolerance::Kind::Exact) {
      ++exact;
      CHECK(r.pass);
    }
    times += ends_with(r.quantity, " time_ns");
    cache_rows += ends_with(r.quantity, " l2_hit_rate");
    if (ends_with(r.quantity, " achieved_occupancy")) {
      // Warps count until their block ends, as ncu counts them (SmCounters::warp_cycles): each
      // within ±0.05, where counting each warp to its own exit left 12 of the 21 outside.
      ++occupancy_rows;
      CHECK(r.pass);
    }
  }
  CHECK(exact == 5 * 147);
  CHECK(times == 147);
  CHECK(occupancy_rows == 21);
  // Launches with more than 100 KB of measured DRAM traffic: 2dconv, syrk, fdtd2d (15),
  // backprop (2), matrixMul (2); no gaussian launch moves that much.
  CHECK(cache_rows == 21);
  // The summary is computed from the rows it summarises.
  std::size_t within = 0;
  for (const auto& r : t.rows)
    if (ends_with(r.quantity, " time_ns")) within += r.pass;
  CHECK(summary.at("launches with time within 10%") == double(within));
  // Issue 25's goals: time MAPE at most 4%, at least 95% of launches within 10%. Refresh in
  // groups (dram.refresh_groups) and the kernel start derived on that model meet them; with every
  // channel refreshing at its own phase the model had 4.47% and 137 of 147.
  CHECK(summary.at("time MAPE %") <= 4.0);
  CHECK(within >= 0.95 * 147);
  CHECK(summary.at("Pearson r of log time") > 0.5);
  CHECK(summary.at("Pearson r of log time") <= 1.0);

  // The correlation plot: every launch a point, the identity line and the ±10% band.
  const std::string svg = analysis::time_correlation_svg(t);
  std::size_t points = 0;
  for (std::size_t at = svg.find("class=\"point\""); at != std::string::npos; at = svg.find("class=\"point\"", at + 1))
    ++points;
  CHECK(points == 147);
  CHECK(contains(svg, "class=\"identity\""));
  CHECK(contains(svg, "class=\"band\""));
  CHECK(contains(svg, "gaussian (126)"));
  const std::string dir = test::temp_dir("apps-plot");
  const auto written = analysis::write_time_correlation(t, fs::path(dir) / "plots");
  REQUIRE(written.size() == 2);
  const std::string csv = read_text(written[1]);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 148);
  CHECK(contains(csv, "matrixMul,\"matrixMul 2 MatrixMulCUDA<16>\","));
  fs::remove_all(dir);
}

TEST_CASE("h100-apps: malformed data is an input error naming file and line", "[validation][apps]") {
  struct Edit {
    const char* what;
    const char* file;
    const char* from;
    const char* to;
    const char* expected;  // in the error message
  };
  const Edit edits[] = {
      {"a missing ncu column", "backprop/ncu.csv", "lts__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pctx",
       "backprop/ncu.csv:1: no column 'lts__t_sector_hit_rate.pct'"},
      {"an instruction count that is not the trace's", "matrixMul/ncu.csv", ",495616,", ",495617,",
       "matrixMul/ncu.csv:3: launch 1: smsp__inst_executed.sum 495617, but its trace "
       "kernel-1-ctx_0x563f36d4bfc0.traceg has 495616 instruction lines ("},
      {"rows out of launch order", "backprop/ncu.csv", "\n0,\"bpnn_layerforward", "\n1,\"bpnn_layerforward",
       "backprop/ncu.csv:3: ID 1, expected 0"},
      {"a time in another unit", "syrk/ncu.csv", ",,,,,,,,ns,", ",,,,,,,,us,",
       "syrk/ncu.csv:2: column 'gpu__time_duration.sum' is in 'us', expected 'ns'"},
      {"a cell that is not a number", "matrixMul/ncu.csv", ",495616,", ",n/a,",
       "matrixMul/ncu.csv:3: no number in column 'smsp__inst_executed.sum' (found 'n/a')"},
      {"trace_lines.csv out of order", "backprop/trace_lines.csv", "1,kernel-1", "1,kernel-2",
       "backprop/trace_lines.csv:2: expected launch 1, kernel-1-ctx_0x558c5dfe6770.traceg"},
      {"a grid that is not the trace's", "2dconv/ncu.csv", "\"(16, 64, 1)\"", "\"(16, 65, 1)\"",
       "2dconv/ncu.csv:3: launch 1: Grid Size (16, 65, 1), but its trace"},
  };
  SECTION("edited cells") {
    for (const auto& e : edits) {
      INFO(e.what);
      BrokenCopy data;
      data.edit(e.file, e.from, e.to);
      CHECK_THAT(table_error(), Catch::Contains(e.expected));
    }
  }
  SECTION("fewer ncu rows than launches") {
    BrokenCopy data;
    data.drop_line("fdtd2d/ncu.csv", 17);  // the last launch's row
    const std::string e = table_error();
    CHECK_THAT(e, Catch::Contains("fdtd2d/ncu.csv:16: 14 launch rows for the 15 launches of"));
    CHECK_THAT(e, Catch::Contains("(rows missing)"));
  }
  SECTION("no units row") {
    BrokenCopy data;
    data.drop_line("2dconv/ncu.csv", 2);
    CHECK_THAT(table_error(), Catch::Contains("2dconv/ncu.csv:2: expected the units row"));
  }
  SECTION("a trace missing") {
    BrokenCopy data;
    fs::remove(data.file("backprop/kernel-2-ctx_0x558c5dfe6770.traceg.xz"));
    CHECK_THAT(table_error(),
               Catch::Contains("backprop/kernelslist.g:7: kernel trace file 'kernel-2-ctx_0x558c5dfe6770.traceg' not found"));
  }
}

TEST_CASE("CSV cells may be quoted, with commas and doubled quotes inside", "[validation]") {
  const std::string dir = test::temp_dir("csv");
  std::ofstream(dir + "/t.csv") << "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",3\n";
  const auto t = analysis::read_csv(dir + "/t.csv");
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0].at("a") == "x, y");
  CHECK(t.rows[0].at("b") == "say \"hi\"");
  CHECK(t.number(0, "c") == 3);
  CHECK(t.where(0) == dir + "/t.csv:2");
  std::ofstream(dir + "/u.csv") << "a,b\n\"open,1\n";
  try {
    analysis::read_csv(dir + "/u.csv");
    FAIL("no error");
  } catch (const sim::InputError& e) {
    CHECK(std::string(e.what()) == dir + "/u.csv:2: a quoted cell is not closed");
  }
  fs::remove_all(dir);
}
