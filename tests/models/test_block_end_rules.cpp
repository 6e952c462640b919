// The two rules of a block's end that the presets keep and the measurements contradict
// (docs/model.md, "Occupancy as ncu counts it"), each with a switch to what was measured:
// - dispatch.warps_counted_to_block_end: achieved occupancy counts a warp until its block's last
//   warp exits; off, until its own exit, as ncu does (h100-measured/store_acks*, h200/warp_window*);
// - dispatch.block_waits_for_stores: a finished block keeps its slot until its stores are
//   acknowledged; off, block_retire_cycles after its last warp, as the GPUs take it again.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "analysis/validation/reference_data.hpp"
#include "models/arch.hpp"
#include "models/simulate.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

struct Warp {
  std::uint64_t block, sm, start, exit;
};

struct Run {
  std::vector<Warp> warps;
  std::uint64_t warp_cycles = 0;  // the SMs' books, summed
  double occupancy = 0;
};

Run run(const std::string& path, const std::string& kernel, std::vector<std::string> params,
        std::vector<std::string> overrides) {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.kernel = kernel;
  r.kernel_params = std::move(params);
  r.arch_overrides = std::move(overrides);
  r.timeline = path;
  r.stats = true;
  const models::RunResult result = models::simulate(r);
  Run out;
  for (const auto& s : result.stats)
    if (s.name.size() > 12 && s.name.compare(s.name.size() - 12, 12, ".warp_cycles") == 0) out.warp_cycles += s.value;
  for (const auto& [name, value] : result.metrics)
    if (name == "achieved_occupancy") out.occupancy = value;
  const analysis::CsvTable t = analysis::read_csv(path);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    auto n = [&](const char* c) { return static_cast<std::uint64_t>(t.number(i, c)); };
    out.warps.push_back({n("block"), n("smid"), n("t_start"), n("t_end")});
  }
  return out;
}

// From each block's last warp exit to the next start on a slot of its SM that it freed, the
// median over every block that took a freed slot (`resident` blocks an SM).
std::uint64_t median_slot_gap(const std::vector<Warp>& warps, std::uint32_t resident) {
  std::map<std::uint64_t, Warp> blocks;  // start: the first warp's, exit: the last's
  for (const Warp& w : warps) {
    auto [it, fresh] = blocks.emplace(w.block, w);
    it->second.start = std::min(it->second.start, w.start);
    it->second.exit = std::max(it->second.exit, w.exit);
  }
  std::map<std::uint64_t, std::vector<Warp>> by_sm;
  for (const auto& [id, b] : blocks) by_sm[b.sm].push_back(b);
  std::vector<std::uint64_t> gaps;
  for (auto& [sm, list] : by_sm) {
    std::sort(list.begin(), list.end(), [](const Warp& a, const Warp& b) { return a.start < b.start; });
    std::vector<std::uint64_t> exits;  // of the blocks holding the slots
    for (const Warp& b : list) {
      if (exits.size() == resident) {
        const auto first = std::min_element(exits.begin(), exits.end());
        gaps.push_back(b.start - *first);
        exits.erase(first);
      }
      exits.push_back(b.exit);
    }
  }
  REQUIRE(gaps.size() > 100);
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  return gaps[gaps.size() / 2];
}

}  // namespace

TEST_CASE("dispatch.warps_counted_to_block_end: each warp counted to its block's last exit, or to its own",
          "[occupancy][timeline]") {
  const std::string dir = test::temp_dir("block_end_count");
  const std::vector<std::string> params{"n=1048576", "offset=1"};
  const Run block_end = run(dir + "/a.csv", "readOffset", params, {});
  const Run own = run(dir + "/b.csv", "readOffset", params, {"dispatch.warps_counted_to_block_end=false"});
  REQUIRE(block_end.warps.size() == own.warps.size());
  std::map<std::uint64_t, std::uint64_t> last_exit;
  std::uint64_t to_block_end = 0, to_own_exit = 0;
  for (const Warp& w : block_end.warps) last_exit[w.block] = std::max(last_exit[w.block], w.exit);
  for (const Warp& w : block_end.warps) to_block_end += last_exit[w.block] - w.start;
  for (const Warp& w : own.warps) to_own_exit += w.exit - w.start;
  // The count changes nothing else: the same warps at the same cycles.
  for (std::size_t i = 0; i < own.warps.size(); ++i) CHECK(own.warps[i].exit == block_end.warps[i].exit);
  CHECK(block_end.warp_cycles == to_block_end);
  CHECK(own.warp_cycles == to_own_exit);
  CHECK(to_own_exit < to_block_end);
  CHECK(own.occupancy / block_end.occupancy == Approx(double(to_own_exit) / double(to_block_end)).epsilon(1e-12));
}

TEST_CASE("dispatch.block_waits_for_stores: a finished block's slot waits for its stores' acknowledgement, or not",
          "[occupancy][timeline]") {
  const models::Arch arch = models::load_arch("hopper-h100");
  const std::string dir = test::temp_dir("block_end_slots");
  // A copy long enough for its stores to queue behind DRAM: 1,024-thread blocks, two an SM.
  const std::vector<std::string> params{"n=16777216", "block=1024"};
  const Run waits = run(dir + "/a.csv", "readOffset", params, {});
  const Run not_waiting = run(dir + "/b.csv", "readOffset", params, {"dispatch.block_waits_for_stores=false"});
  const std::uint64_t least = arch.dispatch.block_retire_cycles + arch.dispatch.block_start_latency_cycles;
  const std::uint64_t with_stores = median_slot_gap(waits.warps, 2), without = median_slot_gap(not_waiting.warps, 2);
  INFO("median slot gap: waiting for the stores " << with_stores << " cycles, not " << without << "; at least " << least);
  // Not waiting, a slot typically turns around as fast as dispatch allows (the retire and start
  // cycles); waiting, the stores' acknowledgement comes on top.
  CHECK(without == least);
  CHECK(with_stores > least);
}
