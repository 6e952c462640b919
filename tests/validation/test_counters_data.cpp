// The counters tables' data: a file without a column every row is read by is an input error
// naming the file and its header line, before anything is simulated.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

TEST_CASE("h100-counters: a data file without its case column is an input error naming file and line",
          "[validation]") {
  // A copy of what h100-counters reads, warp_lifetime.csv with its 'case' column renamed.
  const fs::path from = analysis::validation_data_dir();
  const std::string dir = test::temp_dir("counters-data");
  fs::create_directories(fs::path(dir) / "h100-measured");
  for (const char* f : {"offset.csv", "stride.csv"}) fs::create_symlink(from / f, fs::path(dir) / f);
  fs::create_symlink(from / "h100-measured" / "sparse.csv", fs::path(dir) / "h100-measured" / "sparse.csv");
  std::ifstream in(from / "h100-measured" / "warp_lifetime.csv");
  std::ofstream out(fs::path(dir) / "h100-measured" / "warp_lifetime.csv");
  int header = 0, n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (header == 0 && line.rfind("case,", 0) == 0) {
      header = n;
      line.replace(0, 4, "kase");
    }
    out << line << '\n';
  }
  out.close();
  REQUIRE(header > 0);
  setenv("WARPSIM_DATA_DIR", dir.c_str(), 1);
  std::string error = "(no error)";
  try {
    analysis::ValidationOptions o;
    o.quick = true;
    analysis::run_validation(o, "h100-counters");
  } catch (const sim::InputError& e) {
    error = e.what();
  }
  unsetenv("WARPSIM_DATA_DIR");
  fs::remove_all(dir);
  CHECK_THAT(error, Catch::Contains("warp_lifetime.csv:" + std::to_string(header)) && Catch::Contains("'case'"));
}
