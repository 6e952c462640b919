// SpecReader: counts kept in 32 bits are refused above that, and a broken relation between keys
// is blamed on the --set that broke it, else on the key's own line.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/errors.hpp"
#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"
#include "tests/test_support.hpp"

using namespace warpsim::sim;

namespace {

Config two_keys(const std::string& dir) {
  Config c({param::integer("a.low", "", "lower bound"), param::integer("a.high", "", "upper bound")});
  const std::string path = dir + "/spec.ini";
  std::ofstream(path) << "[a]\nlow = 1  # one\nhigh = 5000000000  # five billion\n";
  c.load_ini(path);
  return c;
}

}  // namespace

TEST_CASE("SpecReader refuses a count above 32 bits, naming where it was set", "[sim][config]") {
  const Config c = two_keys(warpsim::test::temp_dir("spec-reader-u32"));
  const SpecReader read(c);
  CHECK(read.u32("a.low") == 1);
  CHECK(read.u64("a.high") == 5000000000);
  REQUIRE_THROWS_WITH(read.u32("a.high"), Catch::EndsWith("spec.ini:3: a.high = 5000000000 does not fit 32 bits (0 to 4294967295)"));
}

TEST_CASE("SpecReader::require blames the --set that broke a relation, else the key's line", "[sim][config]") {
  Config c = two_keys(warpsim::test::temp_dir("spec-reader-require"));
  const SpecReader read(c);
  read.require(true, "a.low", {"a.high"}, "never thrown");
  REQUIRE_THROWS_WITH(read.require(false, "a.low", {"a.high"}, "exceeds a.high"),
                      Catch::EndsWith("spec.ini:2: a.low: exceeds a.high"));
  c.set_assignment("a.high=0");
  REQUIRE_THROWS_WITH(read.require(false, "a.low", {"a.high"}, "exceeds a.high"),
                      Catch::Equals("--set a.high: a.low: exceeds a.high"));
  c.set_assignment("a.low=7");
  REQUIRE_THROWS_WITH(read.require(false, "a.low", {"a.high"}, "exceeds a.high"),
                      Catch::Equals("--set a.low: a.low: exceeds a.high"));
}
