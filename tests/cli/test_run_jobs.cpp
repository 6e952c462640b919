// warpsim run -j N: the threads that tick the SMs change nothing the run prints but wall_s, and a
// count out of range is bad input.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "tests/test_support.hpp"

using warpsim::test::run_warpsim;

namespace {
std::string without_wall(const std::string& json) { return std::regex_replace(json, std::regex("\"wall_s\": [0-9.e+-]+"), ""); }
}  // namespace

TEST_CASE("run -j gives the same output for any number of threads", "[cli][run][parallel]") {
  const std::string run = "run --arch kepler-k20x --kernel transposeShared -p width=256 --json";
  auto one = run_warpsim(run + " -j 1");
  auto three = run_warpsim(run + " -j 3");
  auto all = run_warpsim(run);  // the default: every core
  REQUIRE(one.exit_code == 0);
  REQUIRE(three.exit_code == 0);
  REQUIRE(all.exit_code == 0);
  CHECK(without_wall(one.out) == without_wall(three.out));
  CHECK(without_wall(one.out) == without_wall(all.out));
}

TEST_CASE("run -j out of range exits 2 naming -j", "[cli][run]") {
  auto r = run_warpsim("run --arch hopper-h100 --kernel emptyKernel -j -1");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("-j") != std::string::npos);
}
