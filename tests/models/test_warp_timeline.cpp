// run --timeline: every warp's start and exit, its block and SM, and when its first two loads'
// data came back, as tools/gpu-probes/timelines.cu and persist_timeline.cu record them on the
// GPU; and the dispatch mechanisms those records show (turnaround_blocks.csv.xz,
// dispatch.csv): a block's warps start warp_launch_interval_cycles apart, and a block slot is
// taken again no sooner than block_retire_cycles after the last warp of its block exited.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/validation/reference_data.hpp"
#include "models/arch.hpp"
#include "models/simulate.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

struct Record {
  std::uint64_t launch, block, warp, sm, start, exit, first_data, second_data;
};

// The timeline's rows, read as any of the project's CSV files (analysis/validation/reference_data).
std::vector<Record> read_timeline(const std::string& path) {
  const analysis::CsvTable t = analysis::read_csv(path);
  REQUIRE(t.columns == std::vector<std::string>{"launch", "block", "warp", "smid", "t_start", "t_end",
                                               "t_first_data", "t_second_data"});
  std::vector<Record> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    auto n = [&](const char* c) { return static_cast<std::uint64_t>(t.number(i, c)); };
    out.push_back({n("launch"), n("block"), n("warp"), n("smid"), n("t_start"), n("t_end"), n("t_first_data"),
                   n("t_second_data")});
  }
  return out;
}

// readOffset with `grid` blocks of `block` threads, its timeline written to `path`.
std::vector<Record> run_timeline(const std::string& path, std::uint32_t grid, std::uint32_t block,
                                 std::vector<std::string> overrides = {}) {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.kernel = "readOffset";
  r.kernel_params = {"n=" + std::to_string(grid * block), "block=" + std::to_string(block)};
  r.arch_overrides = std::move(overrides);
  r.timeline = path;
  models::simulate(r);
  return read_timeline(path);
}

// The shortest time, over every block placed on a slot another block of its SM had held, from
// the exit of the block whose slot it took to its own first warp's start. A block's slot is the
// one freed earliest among those taken when it started (at most `resident` blocks an SM).
std::uint64_t shortest_turnaround(const std::vector<Record>& records, std::uint32_t resident) {
  struct Span {
    std::uint64_t start = ~std::uint64_t{0}, exit = 0, sm = 0;
  };
  std::map<std::uint64_t, Span> blocks;
  for (const Record& r : records) {
    Span& s = blocks[r.block];
    s.start = std::min(s.start, r.start);
    s.exit = std::max(s.exit, r.exit);
    s.sm = r.sm;
  }
  std::map<std::uint64_t, std::vector<Span>> by_sm;
  for (const auto& [id, s] : blocks) by_sm[s.sm].push_back(s);
  std::uint64_t shortest = ~std::uint64_t{0};
  for (auto& [sm, spans] : by_sm) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    std::multiset<std::uint64_t> exits;  // of the blocks started before, not yet replaced
    for (const Span& s : spans) {
      if (exits.size() == resident) {
        const std::uint64_t freed = *exits.begin();
        exits.erase(exits.begin());
        REQUIRE(s.start >= freed);  // no two blocks on one slot at once
        shortest = std::min(shortest, s.start - freed);
      }
      exits.insert(s.exit);
    }
  }
  return shortest;
}

}  // namespace

TEST_CASE("run --timeline records every warp of every block once, on an SM, start before exit", "[timeline]") {
  const models::Arch arch = models::load_arch("hopper-h100");
  const std::string path = test::temp_dir("timeline") + "/records.csv";
  const std::uint32_t grid = 300, block = 128;
  const std::vector<Record> records = run_timeline(path, grid, block);
  REQUIRE(records.size() == std::size_t{grid} * (block / 32));
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  std::map<std::uint64_t, std::uint64_t> sm_of_block;
  for (const Record& r : records) {
    CHECK(r.launch == 1);
    CHECK(r.sm < arch.gpu.sms);
    CHECK(r.start < r.exit);
    // readOffset's two loads (A and B) go to L2: each warp's data comes back after it starts and
    // before its store, and no sooner than an L2 hit would answer.
    CHECK(r.first_data >= r.start + arch.l2.hit_latency);
    CHECK(r.second_data >= r.start + arch.l2.hit_latency);
    CHECK(std::max(r.first_data, r.second_data) < r.exit);
    CHECK(seen.insert({r.block, r.warp}).second);
    auto [it, fresh] = sm_of_block.emplace(r.block, r.sm);
    CHECK(it->second == r.sm);  // a block's warps share its SM
  }
  CHECK(seen.size() == records.size());
  CHECK(sm_of_block.size() == grid);
  // 300 blocks over 132 SMs, all resident at once: the first wave uses every SM.
  std::set<std::uint64_t> sms;
  for (const auto& [b, sm] : sm_of_block) sms.insert(sm);
  CHECK(sms.size() == arch.gpu.sms);
}

TEST_CASE("A block's warps start warp_launch_interval_cycles apart (dispatch.csv)", "[timeline]") {
  const models::Arch arch = models::load_arch("hopper-h100");
  REQUIRE(arch.dispatch.warp_launch_interval_cycles > 0);
  const std::string path = test::temp_dir("timeline_warps") + "/records.csv";
  const std::vector<Record> records = run_timeline(path, 40, 1024);
  std::map<std::uint64_t, std::uint64_t> first_start;
  for (const Record& r : records)
    if (r.warp == 0) first_start[r.block] = r.start;
  REQUIRE(first_start.size() == 40);
  for (const Record& r : records)
    CHECK(r.start - first_start.at(r.block) == r.warp * std::uint64_t{arch.dispatch.warp_launch_interval_cycles});
}

TEST_CASE("A block slot is taken again block_retire_cycles after its block's last warp exits (turnaround_blocks.csv.xz)",
          "[timeline]") {
  const models::Arch arch = models::load_arch("hopper-h100");
  REQUIRE(arch.dispatch.block_retire_cycles > 0);
  const std::string dir = test::temp_dir("timeline_turnaround");
  // 1024-thread blocks: two an SM (2,048 threads), so 600 blocks need about three waves.
  const std::uint64_t measured = shortest_turnaround(run_timeline(dir + "/a.csv", 600, 1024), 2);
  CHECK(measured >= arch.dispatch.block_retire_cycles);
  // Without the mechanism the slot turns around much sooner: the test sees the parameter.
  const std::uint64_t without =
      shortest_turnaround(run_timeline(dir + "/b.csv", 600, 1024, {"dispatch.block_retire_cycles=0"}), 2);
  CHECK(without < arch.dispatch.block_retire_cycles);
}

TEST_CASE("run --timeline refuses an unwritable file before the run", "[timeline]") {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.kernel = "readOffset";
  r.kernel_params = {"n=1024"};
  r.timeline = "/nonexistent-directory/records.csv";
  CHECK_THROWS_AS(models::simulate(r), sim::InputError);
}
