// The HDF5 result file, shards and merge, and the sweep command's handling of bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "sim/errors.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/merge.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/shard.hpp"
#include "sweeps/sweep_run.hpp"
#include "tests/sweeps/sweep_test_helpers.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

TEST_CASE("shards split the points round-robin and merge back to the whole sweep", "[sweep][merge]") {
  auto dir = fs::path(test::temp_dir("merge"));
  auto spec = sweeps::parse_spec(test::write_spec(dir, "two.ini", test::kTwoStudySpec));
  auto points = sweeps::enumerate_points(spec);
  sweeps::DriverOptions o;
  o.jobs = 2;
  auto whole = sweeps::run_points(points, test::synthetic_runner(), o);
  sweeps::write_result_file(dir / "whole.h5", spec, points, whole.results, {"whole", "", std::nullopt});

  std::vector<fs::path> shard_files;
  std::size_t total = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    sweeps::Shard shard{i, 3};
    std::vector<sweeps::Point> mine;
    for (const auto& p : points)
      if (shard.owns(p.index)) mine.push_back(p);
    total += mine.size();
    auto part = sweeps::run_points(mine, test::synthetic_runner(), o);
    shard_files.push_back(dir / ("shard" + std::to_string(i) + ".h5"));
    sweeps::write_result_file(shard_files.back(), spec, points, part.results, {"shard", "", shard});
  }
  CHECK(total == points.size());
  // Any order of shard files gives the same merge.
  std::swap(shard_files[0], shard_files[2]);
  sweeps::merge_result_files(dir / "merged.h5", shard_files, "merge", test::synthetic_runner(), {});
  auto a = sweeps::read_result_file(dir / "whole.h5");
  auto b = sweeps::read_result_file(dir / "merged.h5");
  CHECK(a.config == b.config);
  CHECK(b.shard.empty());
  REQUIRE(a.results.size() == b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    CHECK(a.results[i].index == b.results[i].index);
    CHECK(a.results[i].cycles == b.results[i].cycles);
    CHECK(a.results[i].status == b.results[i].status);
    CHECK(a.results[i].message == b.results[i].message);
    for (std::size_t m = 0; m < a.results[i].metrics.size(); ++m)
      CHECK((a.results[i].metrics[m] == b.results[i].metrics[m] ||
             (std::isnan(a.results[i].metrics[m]) && std::isnan(b.results[i].metrics[m]))));
  }

  // An incomplete set, a duplicate and a stranger are refused.
  auto merge = [&](std::vector<fs::path> files) {
    sweeps::merge_result_files(dir / "x.h5", files, "m", test::synthetic_runner(), {});
  };
  CHECK_THROWS_WITH(merge({shard_files[0], shard_files[1]}), Catch::Contains("are in none of the shards"));
  CHECK_THROWS_WITH(merge({shard_files[0], shard_files[0]}), Catch::Contains("also in"));
  CHECK(!fs::exists(dir / "x.h5"));
}

TEST_CASE("shard text and the Slurm array environment", "[sweep][shard]") {
  auto s = sweeps::parse_shard("2/5");
  CHECK(s.index == 2);
  CHECK(s.count == 5);
  CHECK(s.owns(7));
  CHECK_FALSE(s.owns(8));
  for (const char* bad : {"5/5", "-1/2", "1", "a/b", "0/0"}) CHECK_THROWS_AS(sweeps::parse_shard(bad), sim::InputError);
}

TEST_CASE("sweep with a bad spec exits 2, names file:line and creates no output", "[sweep][cli]") {
  auto dir = fs::path(test::temp_dir("cli-bad"));
  auto spec = test::write_spec(dir, "bad.ini", "[study a]\narch = kepler-k20x\nkernel = readOffset\nblock = 32..\n");
  auto out = dir / "out.h5";
  auto r = test::run_warpsim("sweep " + spec.string() + " -o " + out.string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(spec.string() + ":4") != std::string::npos);
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(dir / "out.h5.journal"));

  auto missing_dir = test::run_warpsim("sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini -o " +
                                       (dir / "nope" / "out.h5").string());
  CHECK(missing_dir.exit_code == 2);
  CHECK(missing_dir.err.find("does not exist") != std::string::npos);
}

TEST_CASE("sweep --dry-run prints the point count and a sample on stdout", "[sweep][cli]") {
  auto r = test::run_warpsim("sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini --dry-run");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("12 points in 1 study") == 0);
  CHECK(r.out.find("point 0 [smoke] arch=hopper-h100 kernel=readOffsetUnroll") != std::string::npos);
  // A negative sample is refused (an unsigned option read -1 as 2^64 - 1 and looped that many
  // times); one larger than the sweep shows every point once.
  const std::string smoke = "sweep " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini --dry-run --sample ";
  auto negative = test::run_warpsim(smoke + "-1");
  CHECK(negative.exit_code == 2);
  CHECK(negative.err.find("--sample") != std::string::npos);
  auto huge = test::run_warpsim(smoke + "99999999999");
  CHECK(huge.exit_code == 0);
  CHECK(huge.out.find("point 11 [smoke]") != std::string::npos);
  auto tasks = test::run_warpsim("sweep slurm " + std::string(WARPSIM_SOURCE_DIR) + "/sweeps/specs/smoke.ini --tasks -1");
  CHECK(tasks.exit_code == 2);
  CHECK(tasks.err.find("--tasks: must be at least 1") != std::string::npos);
}

TEST_CASE("a sweep's output may not be its spec, a shard it merges, or sit beside a journal that is not a file", "[sweep][output]") {
  // Fuzzed: `sweep s.ini -o s.ini` replaced the spec with the results; a directory named
  // OUT.h5.journal ended the sweep with an internal error (exit 3).
  auto dir = fs::path(test::temp_dir("output-checks"));
  const fs::path spec = test::write_spec(dir, "s.ini", test::kTwoStudySpec);
  CHECK_THROWS_WITH(sweeps::check_output_path(spec, {spec}), Catch::Matchers::Contains("is the input"));
  // The same file by another name.
  CHECK_THROWS_AS(sweeps::check_output_path(dir / "." / "s.ini", {spec}), sim::InputError);
  CHECK_NOTHROW(sweeps::check_output_path(dir / "r.h5", {spec}));
  // sweep merge passes its shards: the output may be none of them.
  std::ofstream(dir / "s1.h5") << "x";
  CHECK_THROWS_WITH(sweeps::check_output_path(dir / "s1.h5", {dir / "s0.h5", dir / "s1.h5"}),
                    Catch::Matchers::Contains("is the input"));
  fs::create_directory(dir / "r.h5.journal");
  CHECK_THROWS_WITH(sweeps::check_output_path(dir / "r.h5", {spec}), Catch::Matchers::Contains("journal"));
  fs::remove_all(dir);
}

TEST_CASE("results written to a symbolic link land in its file, and the link stays", "[sweep][output]") {
  auto dir = fs::path(test::temp_dir("output-symlink"));
  fs::create_directories(dir);
  fs::create_symlink("real.h5", dir / "link.h5");
  test::write_two_study_results(dir, dir / "link.h5");
  CHECK(fs::is_symlink(dir / "link.h5"));
  REQUIRE(fs::is_regular_file(dir / "real.h5"));
  const auto points = sweeps::enumerate_points(sweeps::parse_spec(dir / "two.ini")).size();
  CHECK(sweeps::read_result_file(dir / "link.h5").results.size() == points);
  fs::remove_all(dir);
}
