// Sweep specs: values, ranges, studies, and errors that name file:line.
#include <catch2/catch.hpp>

#include "sim/errors.hpp"
#include "sweeps/axis_values.hpp"
#include "sweeps/points.hpp"
#include "sweeps/spec.hpp"
#include "tests/sweeps/sweep_test_helpers.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
using Catch::Matchers::Contains;
using V = std::vector<std::string>;

TEST_CASE("axis values: single values, lists, integer, float and geometric ranges", "[sweep][spec]") {
  using sweeps::parse_axis_values;
  auto one = parse_axis_values("256", "w");
  CHECK_FALSE(one.is_axis);
  CHECK(one.values == V{"256"});
  CHECK(parse_axis_values("256,", "w").is_axis);  // a trailing comma makes a one-value axis
  CHECK(parse_axis_values("1, 2,4 ,8", "w").values == V{"1", "2", "4", "8"});
  CHECK(parse_axis_values("32..128 step 32", "w").values == V{"32", "64", "96", "128"});
  CHECK(parse_axis_values("1..3", "w").values == V{"1", "2", "3"});
  auto f = parse_axis_values("0..1 step 0.05", "w").values;
  REQUIRE(f.size() == 21);
  CHECK(f[3] == "0.15");
  CHECK(f.back() == "1");
  CHECK(parse_axis_values("1K..8K x 2", "w").values == V{"1024", "2048", "4096", "8192"});
  CHECK(parse_axis_values("4M", "w").values == V{"4194304"});
  CHECK(parse_axis_values("persisting, streaming", "w").values == V{"persisting", "streaming"});
  CHECK(parse_axis_values("0, 8..16 step 8", "w").values == V{"0", "8", "16"});
}

TEST_CASE("axis values: malformed ranges and empty axes are input errors", "[sweep][spec]") {
  using sweeps::parse_axis_values;
  for (const char* bad : {"", "1..", "..4", "4..1", "1..4 step 0", "1..4 step -1", "1..4 by 2", "1,,2", "a..b",
                          "1..4 x 1", "1, 1"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_axis_values(bad, "spec.ini:3"), sim::InputError);
  }
  CHECK_THROWS_WITH(parse_axis_values("32..", "spec.ini:3"), Contains("spec.ini:3") && Contains("bad range"));
}

TEST_CASE("axis values: integer ranges up to the 64-bit limit end where they should", "[sweep][spec]") {
  // A range's last value at or near INT64_MAX: a loop adding the step would wrap past it and never
  // end (a fuzzed spec grew memory until bad_alloc).
  using sweeps::parse_axis_values;
  CHECK(parse_axis_values("9223372036854775807..9223372036854775807", "w").values == V{"9223372036854775807"});
  CHECK(parse_axis_values("9223372036854775800..9223372036854775807 step 4", "w").values ==
        V{"9223372036854775800", "9223372036854775804"});
  CHECK(parse_axis_values("0..9223372036854775807 step 9223372036854775807", "w").values ==
        V{"0", "9223372036854775807"});
  CHECK(parse_axis_values("-9223372036854775807..9223372036854775807 step 9223372036854775807", "w").values ==
        V{"-9223372036854775807", "0", "9223372036854775807"});
  // A geometric range whose next value passes the limit is refused, not rounded into overflow.
  CHECK_THROWS_AS(parse_axis_values("1..9223372036854775807 x 2", "spec.ini:3"), sim::InputError);
  // A size suffix that would wrap stays as written (and the simulator refuses it by name), where
  // 99999999999G became -3306282043331051520.
  CHECK(parse_axis_values("99999999999G", "w").values == V{"99999999999G"});
  CHECK(parse_axis_values("8589934591G", "w").values == V{"9223372035781033984"});
}

TEST_CASE("a spec with two studies enumerates each Cartesian product in row-major order", "[sweep][spec]") {
  auto dir = test::temp_dir("spec-two");
  auto spec = sweeps::parse_spec(test::write_spec(dir, "two.ini", test::kTwoStudySpec));
  REQUIRE(spec.studies.size() == 2);
  CHECK(spec.seed == 7);
  const auto& u = spec.studies[0];
  CHECK(u.name == "unroll");
  // arch first, then kernel, then the file order.
  std::vector<std::string> names;
  for (const auto& s : u.settings) names.push_back(s.name);
  CHECK(names == V{"arch", "kernel", "set.sm.max_threads_per_block", "n", "block", "unroll", "offset"});
  CHECK(u.point_count() == 2 * 2 * 4 * 2);
  CHECK(spec.studies[1].point_count() == 5 * 3);
  CHECK(spec.point_count() == 32 + 15);

  auto points = sweeps::enumerate_points(spec);
  REQUIRE(points.size() == 47);
  CHECK(points[0].request.arch == "kepler-k20x");
  CHECK(points[0].request.kernel_params == V{"n=4096", "block=128", "unroll=1", "offset=0"});
  CHECK(points[0].request.arch_overrides == V{"sm.max_threads_per_block=512"});
  CHECK(points[1].request.kernel_params == V{"n=4096", "block=128", "unroll=1", "offset=16"});  // last fastest
  CHECK(points[16].request.arch == "hopper-h100");
  CHECK(points[0].request.seed == 7);
  CHECK(points[32].request.kernel == "persistKernel");
  CHECK(points[32].request.kernel_params == V{"hit_ratio=0", "persist_bytes=1048576", "window_bytes=4194304"});
  CHECK(points[46].request.kernel_params == V{"hit_ratio=1", "persist_bytes=4194304", "window_bytes=4194304"});
  CHECK(sweeps::swept_parameter_names(spec) == V{"block", "unroll", "offset", "hit_ratio", "persist_bytes"});
}

TEST_CASE("the resolved spec reads back as the same sweep", "[sweep][spec]") {
  auto dir = test::temp_dir("spec-resolved");
  auto spec = sweeps::parse_spec(test::write_spec(dir, "two.ini", std::string(test::kTwoStudySpec) +
                                                                     "\n[study single]\narch = fermi-m2070\n"
                                                                     "kernel = readOffset\nblock = 256,\nset.sm.max_blocks = 4, 8\n"));
  auto text = sweeps::resolved_spec_text(spec);
  auto again = sweeps::parse_spec_text(text, "resolved");
  CHECK(sweeps::resolved_spec_text(again) == text);
  auto a = sweeps::enumerate_points(spec), b = sweeps::enumerate_points(again);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].request.kernel_params == b[i].request.kernel_params);
    CHECK(a[i].request.arch_overrides == b[i].request.arch_overrides);
  }
  CHECK(again.studies[2].find("block")->is_axis);  // the one-value axis survives
  CHECK(a.back().request.arch_overrides == V{"sm.max_blocks=8"});
}

TEST_CASE("sample = on in [sweep] samples every study that does not say off", "[sweep][spec][sampling]") {
  auto dir = test::temp_dir("spec-sample");
  auto spec = sweeps::parse_spec(test::write_spec(dir, "s.ini",
                                                  "[sweep]\nsample = on\n[study a]\narch = kepler-k20x\n"
                                                  "kernel = readOffset\nblock = 128, 256\n[study b]\nsample = off\n"
                                                  "arch = kepler-k20x\nkernel = readOffset\n"));
  CHECK(spec.studies[0].sample);
  CHECK_FALSE(spec.studies[1].sample);
  CHECK(spec.any_sampled());
  const auto points = sweeps::enumerate_points(spec);
  CHECK(points[0].request.sample);
  CHECK(points[1].request.sample);
  CHECK_FALSE(points[2].request.sample);
  // The resolved text keeps it per study, so journals and shards of a sampled sweep match only
  // each other; a sweep without sampling resolves as before.
  const auto text = sweeps::resolved_spec_text(spec);
  CHECK(text.find("[study a]\nseed = 1\nsample = on\n") != std::string::npos);
  CHECK(text.find("[study b]\nseed = 1\narch") != std::string::npos);
  CHECK(sweeps::resolved_spec_text(sweeps::parse_spec_text(text, "again")) == text);
  CHECK_FALSE(sweeps::parse_spec_text("[study a]\narch = kepler-k20x\nkernel = readOffset\n", "x").any_sampled());
}

TEST_CASE("spec errors name file:line", "[sweep][spec]") {
  auto dir = test::temp_dir("spec-errors");
  struct Case {
    const char* text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nblok = 32\n", ":4", "kernel readOffset has no parameter 'blok'"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nblock = 32..\n", ":4", "bad range"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nblock =\n", ":4", "no value"},
      {"[study a]\narch = volta-v100\nkernel = readOffset\n", ":2", "unknown architecture 'volta-v100'"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffsett\n", ":3", "unknown kernel 'readOffsett'"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nset.sm.bogus = 1\n", ":4", "unknown preset parameter"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffsetUnroll\nunroll = 1..4\n", ":4", "bad value '3' for unroll"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nblock = 32..2048 step 32\n", ":4", "bad value '1056' for block"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset, persistKernel\noffset = 1\n", ":4",
       "kernel persistKernel has no parameter 'offset'"},
      {"[sweep]\nseeed = 1\n[study a]\narch = kepler-k20x\nkernel = readOffset\n", ":2", "unknown key 'seeed'"},
      {"[sweeps]\nseed = 1\n", ":2", "unknown section"},
      {"[study a]\nkernel = readOffset\n", ":2", "has no 'arch ='"},
      {"[study a]\narch = kepler-k20x\n", ":2", "exactly one of 'kernel =' or 'trace ='"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nblock = 1, 2\nblock = 3\n", ":5", "already set on line 4"},
      {"[sweep]\nsample = yes\n[study a]\narch = kepler-k20x\nkernel = readOffset\n", ":2", "sample must be on or off"},
      {"[study a]\narch = kepler-k20x\nkernel = readOffset\nsample = 1\n", ":4", "sample must be on or off, got '1'"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto path = test::write_spec(dir, "bad.ini", c.text);
    CHECK_THROWS_WITH(sweeps::parse_spec(path), Contains(path.string() + c.where) && Contains(c.what));
  }
  CHECK_THROWS_WITH(sweeps::parse_spec(test::write_spec(dir, "empty.ini", "[sweep]\nseed = 1\n")),
                    Contains("no [study NAME] section"));
}

TEST_CASE("a sweep of more points than fit in memory is an input error, not an allocation failure", "[sweep][spec]") {
  auto dir = test::temp_dir("spec-size");
  const std::string head = "[study a]\narch = hopper-h100\nkernel = persistKernel\n";
  // 10,000 x 1,001 = 10,010,000 points: just over the limit of 10,000,000.
  auto over = test::write_spec(dir, "over.ini", head + "grid = 1..10000\nblock = 1..1001\n");
  CHECK_THROWS_WITH(sweeps::parse_spec(over), Contains("more than 10000000 points") && Contains("a 10010000"));
  // 10,000 x 1,000 = 10,000,000 points: allowed.
  auto at = test::write_spec(dir, "at.ini", head + "grid = 1..10000\nblock = 1..1000\n");
  CHECK(sweeps::parse_spec(at).point_count() == 10'000'000);
  // 100,000^3 x 1,024 x 100,000 overflows 64 bits: the count saturates instead of wrapping.
  auto huge = test::write_spec(dir, "huge.ini", head + "grid = 1..100000\nblock = 1..1024\n"
                                                      "persist_bytes = 4..400000 step 4\ndata_bytes = 4..400000 step 4\n"
                                                      "window_bytes = 4..400000 step 4\n");
  CHECK_THROWS_WITH(sweeps::parse_spec(huge), Contains("more than 2^64"));
}

TEST_CASE("the shipped specs parse", "[sweep][spec]") {
  for (const char* name : {"smoke.ini", "demo.ini", "blocksize.ini", "stride.ini", "l2_persistence.ini", "large.ini"}) {
    INFO(name);
    auto spec = sweeps::parse_spec(std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/" + name);
    CHECK(spec.point_count() > 0);
    if (std::string(name) == "smoke.ini") CHECK(spec.point_count() <= 16);
    CHECK(spec.any_sampled() == (std::string(name) == "large.ini"));
  }
}
