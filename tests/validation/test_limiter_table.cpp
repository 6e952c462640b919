// The h100-limiter table on trimmed copies of its data: the rows it builds for a launch, and
// malformed data as input errors naming file and line. The whole table runs in
// test_validation.cpp ([slow]).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

const char* const kFiles[] = {"offset.csv", "stride.csv", "persist_10MB.csv", "stride_full.csv",
                              "persist_breakdown.csv", "apps_all.csv"};

// Cells as written, quotes kept: commas inside quotes do not split.
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Points validation_data_dir() at copies of h100-measured/ that keep only the data rows
// `keep(file, row text)` accepts (provenance and header stay), and a link to h100-apps.
class TrimmedCopy {
 public:
  template <class Keep>
  explicit TrimmedCopy(Keep keep) : dir_(test::temp_dir("limiter-data")) {
    const fs::path from = analysis::validation_data_dir();
    fs::create_directories(fs::path(dir_) / "h100-measured");
    fs::create_directory_symlink(from / "h100-apps", fs::path(dir_) / "h100-apps");
    for (const char* f : kFiles) {
      std::istringstream in(read_text(from / "h100-measured" / f));
      std::ofstream out(fs::path(dir_) / "h100-measured" / f, std::ios::binary);
      bool header = true;
      for (std::string line; std::getline(in, line);) {
        const bool data = !line.empty() && line[0] != '#' && !header;
        if (!line.empty() && line[0] != '#') header = false;
        if (!data || keep(std::string(f), line)) out << line << '\n';
      }
    }
    setenv("WARPSIM_DATA_DIR", dir_.c_str(), 1);
  }
  ~TrimmedCopy() {
    unsetenv("WARPSIM_DATA_DIR");
    fs::remove_all(dir_);
  }
  // Sets the cell of `column` in the data row that starts with `row` (cells split at commas
  // outside quotes, as ncu quotes them).
  void set_cell(const std::string& file, const std::string& row, const std::string& column, const std::string& value) const {
    const fs::path p = fs::path(dir_) / "h100-measured" / file;
    std::istringstream in(read_text(p));
    std::string out, line;
    std::size_t index = std::string::npos;
    bool done = false;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != '#') {
        const std::vector<std::string> cells = split(line);
        if (index == std::string::npos) {
          for (std::size_t i = 0; i < cells.size(); ++i)
            if (cells[i] == column) index = i;
          REQUIRE(index != std::string::npos);
        } else if (!done && line.rfind(row, 0) == 0) {
          std::vector<std::string> edited = cells;
          edited.at(index) = value;
          line.clear();
          for (std::size_t i = 0; i < edited.size(); ++i) line += (i ? "," : "") + edited[i];
          done = true;
        }
      }
      out += line + '\n';
    }
    REQUIRE(done);
    std::ofstream(p, std::ios::binary) << out;
  }
  // The 1-based line of `file`'s header: the first line that is not a '#' provenance line.
  std::size_t header_line(const std::string& file) const {
    std::istringstream in(read_text(fs::path(dir_) / "h100-measured" / file));
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
      if (++n, !line.empty() && line[0] != '#') return n;
    return 0;
  }
  void edit(const std::string& file, const std::string& from, const std::string& to) const {
    const fs::path p = fs::path(dir_) / "h100-measured" / file;
    std::string text = read_text(p);
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(p, std::ios::binary) << text;
  }

 private:
  std::string dir_;
};

analysis::ValidationTable quick_table() {
  analysis::ValidationOptions o;
  o.quick = true;
  auto tables = analysis::run_validation(o, "h100-limiter");
  REQUIRE(tables.size() == 1);
  return tables[0];
}

std::string table_error() {
  try {
    quick_table();
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// One launch of each kind: a calibration kernel at n = 2^20 and the one-launch 2dconv.
bool one_of_each(const std::string& file, const std::string& line) {
  if (file == "offset.csv") return line.rfind("readOffset,lg=20;bs=512;offset=0,", 0) == 0;
  if (file == "apps_all.csv") return line.rfind("2dconv,launch=1,", 0) == 0;
  return false;
}

}  // namespace

TEST_CASE("h100-limiter: per launch a verdict row, utilisations and the occupancy calculator", "[validation][limiter]") {
  TrimmedCopy data(one_of_each);
  const analysis::ValidationTable t = quick_table();
  std::size_t verdicts = 0, utilisations = 0, occupancy = 0;
  for (const auto& r : t.rows) {
    INFO(r.quantity << " reference " << r.reference << " simulated " << r.simulated);
    if (r.quantity.find(" verdict: ncu ") != std::string::npos) ++verdicts;
    if (r.quantity.size() > 2 && r.quantity.compare(r.quantity.size() - 2, 2, " %") == 0) ++utilisations;
    if (r.quantity.find("occupancy") != std::string::npos) ++occupancy;
    CHECK(r.pass);
  }
  CHECK(verdicts == 2);
  CHECK(utilisations == 3 + 5);  // offset.csv: issue, dram, l1; apps_all.csv (full set) adds shared and l2
  CHECK(occupancy == 2 * 2);
  CHECK(t.rows.back().quantity == "verdicts agreeing with ncu's bound, % of 2 launches (goal)");
  CHECK(t.rows.back().simulated == 100);
}

TEST_CASE("h100-limiter: malformed data is an input error naming file and line", "[validation][limiter]") {
  SECTION("a missing column") {
    TrimmedCopy data(one_of_each);
    data.edit("stride.csv", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,",
              "gpu__compute_memory_throughputx.avg.pct_of_peak_sustained_elapsed,");
    // The header's line: after the file's '#' provenance lines.
    CHECK_THAT(table_error(), Catch::Contains("stride.csv:" + std::to_string(data.header_line("stride.csv")) +
                                              ": no column "
                                              "'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'"));
  }
  SECTION("params that name no calibration run") {
    TrimmedCopy data(one_of_each);
    data.edit("offset.csv", "readOffset,lg=20;bs=512;offset=0,", "readOffset,lg=20;offset=0,");
    CHECK_THAT(table_error(), Catch::Contains("offset.csv:") && Catch::Contains("params 'lg=20;offset=0' do not name"));
  }
  SECTION("a launch the traced program does not have") {
    TrimmedCopy data(one_of_each);
    data.edit("apps_all.csv", "2dconv,launch=1,", "2dconv,launch=2,");
    CHECK_THAT(table_error(), Catch::Contains("apps_all.csv:11: params 'launch=2': expected launch=K with K in 1..1"));
  }
  SECTION("a launch whose grid is not the traced one's") {
    TrimmedCopy data(one_of_each);
    data.set_cell("apps_all.csv", "2dconv,launch=1,", "launch__grid_size", "1023");
    const std::string e = table_error();
    INFO(e);
    CHECK_THAT(e, Catch::Contains("apps_all.csv:11: launch 1 of 2dconv: grid and block differ"));
  }
  SECTION("a cell that is not a number") {
    TrimmedCopy data(one_of_each);
    data.set_cell("offset.csv", "readOffset,lg=20;bs=512;offset=0,", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                  "n/a");
    CHECK_THAT(table_error(), Catch::Contains("offset.csv:") &&
                                  Catch::Contains("no number in column 'sm__throughput.avg.pct_of_peak_sustained_elapsed' "
                                                  "(found 'n/a')"));
  }
}
