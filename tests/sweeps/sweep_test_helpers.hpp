#pragma once
// Shared by the [sweep] tests: write a spec file, run points with the synthetic runner.
#include <filesystem>
#include <fstream>
#include <string>

#include "sweeps/driver.hpp"
#include "sweeps/point_result.hpp"
#include "sweeps/points.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/spec.hpp"
#include "sweeps/synthetic_runner.hpp"

namespace warpsim::test {

inline std::filesystem::path write_spec(const std::filesystem::path& dir, const std::string& name,
                                        const std::string& text) {
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  std::ofstream(path) << text;
  return path;
}

inline sweeps::PointRunner synthetic_runner() {
  return [](const models::RunRequest& r) { return sweeps::synthetic_simulate(r); };
}

// Two studies, one with a point the simulator refuses (block 1024 above an override of 512).
inline const char* kTwoStudySpec = R"(# two studies
[sweep]
seed = 7

[study unroll]
arch = kepler-k20x, hopper-h100
kernel = readOffsetUnroll
set.sm.max_threads_per_block = 512   # so block 1024 cannot run
n = 4096
block = 128, 1024
unroll = 1, 2, 4, 8
offset = 0, 16

[study persist]
arch = hopper-h100
kernel = persistKernel
hit_ratio = 0..1 step 0.25
persist_bytes = 1M..4M x 2
window_bytes = 4M
)";

// kTwoStudySpec (written to dir/two.ini) run by the synthetic runner and saved as `out`: a small,
// complete result file with failed points in it.
inline void write_two_study_results(const std::filesystem::path& dir, const std::filesystem::path& out) {
  auto spec = sweeps::parse_spec(write_spec(dir, "two.ini", kTwoStudySpec));
  auto points = sweeps::enumerate_points(spec);
  sweeps::DriverOptions o;
  o.jobs = 2;
  auto run = sweeps::run_points(points, synthetic_runner(), o);
  sweeps::write_result_file(out, spec, points, run.results, {"test", "", std::nullopt});
}

}  // namespace warpsim::test
