// The four real traces of ../shared/traces against their README.md: grid, block and instruction
// lines as read, and as `warpsim trace info` prints them in text and JSON.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/test_support.hpp"
#include "tests/traces/accelsim_error_helpers.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/open_workload.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
namespace fs = std::filesystem;

TEST_CASE("the four shared traces match README.md: grid x block and instruction lines", "[accelsim][shared]") {
  auto rows = readme_rows();
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows) {
    INFO(row.folder);
    WorkloadSummary s = summarize_workload(open_workload(shared_path("traces/" + row.folder + "/kernelslist.g")));
    std::uint64_t lines = 0;
    REQUIRE_FALSE(s.kernels.empty());
    for (const auto& k : s.kernels) {
      CHECK(k.info.grid.count() == row.blocks);
      CHECK(k.info.block.count() == row.threads);
      CHECK(k.warnings.empty());
      CHECK(k.blocks_traced == row.blocks);
      lines += k.instructions;
    }
    CHECK(lines == row.instruction_lines);
  }
}

TEST_CASE("trace info prints grid, block and counts, in text and JSON", "[accelsim][cli]") {
  auto rows = readme_rows();
  for (const auto& row : rows) {
    INFO(row.folder);
    auto r = run_warpsim("trace info " + shared_path("traces/" + row.folder + "/kernelslist.g"));
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, std::to_string(row.blocks) + " x " + std::to_string(row.threads)));
    CHECK(contains(r.out, "total: " + std::to_string(row.instruction_lines) + " instructions"));
    auto j = run_warpsim("trace info --json " + shared_path("traces/" + row.folder));
    REQUIRE(j.exit_code == 0);
    CHECK(contains(j.out, "\"instructions\": " + std::to_string(row.instruction_lines) + ", \"memory_instructions\""));
    CHECK(contains(j.out, "\"blocks\": " + std::to_string(row.blocks)));
  }
  auto vec = run_warpsim("trace info --json " + shared_path("traces/vectoradd-sm80-v5/kernel-1.traceg"));
  CHECK(contains(vec.out, "\"memory_instructions\": 4689"));
  CHECK(contains(vec.out, "\"tracer_version\": \"5\", \"binary_version\": 80"));

  std::string dir = temp_dir("info-bad");
  write_file(dir + "/bad.traceg", one_warp_trace(3, {"0000 ffffffff 0 NOP 0 0 ", "zz"}));
  auto bad = run_warpsim("trace info " + dir + "/bad.traceg");
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "bad.traceg:23: "));
  fs::remove_all(dir);
  CHECK(run_warpsim("trace --help").exit_code == 0);
  CHECK(run_warpsim("trace info").exit_code == 2);
}
