// Thread blocks of an Accel-Sim trace: blocks left out have no warps (and the simulator skips
// them, even in a corrupt grid), blocks can be reopened, and blocks in flight together read
// independently (traceg and wtrace).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "models/simulate.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/accelsim_error_helpers.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/open_workload.hpp"
#include "traces/wtrace/wtrace_writer.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
namespace fs = std::filesystem;

TEST_CASE("the simulator skips blocks a trace left out, even in a corrupt 2^63-block grid", "[accelsim][models]") {
  // Two traced blocks of one warp each (NOP, EXIT). Left-out blocks never ran on the GPU (FORMAT.md
  // section 3): with them skipped, a grid of 4 with blocks 0 and 2 traced, and a corrupt grid of
  // 2^31 x 65535 x 65535 ids with the same two, take the cycles of a grid of exactly 2. Walked one
  // id at a time, the corrupt grid would never finish.
  std::string dir = temp_dir("left-out");
  auto cycles_of = [&](const char* grid, std::initializer_list<int> blocks) {
    std::string text = traceg_header(3, grid, "(32,1,1)");
    for (int b : blocks) {
      text += "#BEGIN_TB\nthread block = " + std::to_string(b) + ",0,0\nwarp = 0\ninsts = 2\n";
      text += "0000 ffffffff 0 NOP 0 0 \n0010 ffffffff 0 EXIT 0 0 \n#END_TB\n";
    }
    const std::string path = dir + "/k.traceg";
    write_file(path, text);
    warpsim::models::RunResult r = warpsim::models::simulate({"hopper-h100", {}, "", {}, path, 1});
    CHECK(r.warp_instructions == 4);
    return r.cycles;
  };
  const auto dense = cycles_of("(2,1,1)", {0, 1});
  REQUIRE(cycles_of("(4,1,1)", {0, 2}) == dense);  // if blocks were walked, the next run would not end
  CHECK(cycles_of("(2147483647,65535,65535)", {0, 1}) == dense);
  fs::remove_all(dir);
}

TEST_CASE("blocks left out have no warps; blocks can be reopened", "[accelsim]") {
  std::string text = traceg_header(3, "(4,1,1)", "(40,1,1)");
  for (int b : {0, 2}) {
    text += "#BEGIN_TB\nthread block = " + std::to_string(b) + ",0,0\nwarp = 1\ninsts = 2\n";
    text += "0000 ffffffff 0 NOP 0 0 \n0010 ffffffff 0 EXIT 0 0 \n#END_TB\n";
  }
  auto source = source_from_text(text);
  CHECK(source->open_block(0).size() == 2);  // ceil(40 / 32) warps, warp 0 empty
  CHECK(source->open_block(1).empty());
  auto b2 = source->open_block(2);
  REQUIRE(b2.size() == 2);
  Instruction inst;
  CHECK_FALSE(b2[0]->next(inst));
  REQUIRE(b2[1]->next(inst));
  CHECK(inst.pc == 0);
  REQUIRE(b2[1]->next(inst));
  CHECK(inst.control == Control::Exit);
  CHECK_FALSE(b2[1]->next(inst));
  CHECK(source->open_block(3).empty());
  CHECK(source->open_block(0).size() == 2);  // rereads from the start
  // Accepted, but said: both blocks list 1 of their 2 warps. The reread counts nothing twice.
  auto warnings = source->warnings();
  REQUIRE(warnings.size() == 1);
  CHECK(contains(warnings[0], "test.traceg:"));
  CHECK(contains(warnings[0], "thread block 0 lists 1 of its 2 warps (and 1 more blocks list too few)"));
}

TEST_CASE("blocks in flight together read independently (traceg and wtrace)", "[accelsim][wtrace]") {
  // The GPU model keeps several blocks open and pulls their warps in any interleaving.
  std::string dir = temp_dir("inflight");
  std::string traceg = shared_path("traces/vectoradd-sm80-v5/kernel-1.traceg");
  Workload w = open_workload(traceg);
  wtrace::write_wtrace(w, dir + "/v.wtrace");
  for (const std::string& path : {traceg, dir + "/v.wtrace"}) {
    INFO(path);
    auto sequential = read_all(*open_workload(path).steps[0].launch.open());
    auto source = open_workload(path).steps[0].launch.open();
    std::vector<std::vector<std::unique_ptr<WarpStream>>> open;
    for (std::uint64_t b = 0; b < 4; ++b) open.push_back(source->open_block(b));
    // Round-robin over every warp of the four blocks, one instruction at a time.
    std::map<std::pair<std::uint64_t, std::size_t>, std::vector<Instruction>> got;
    bool progress = true;
    while (progress) {
      progress = false;
      for (std::uint64_t b = 0; b < 4; ++b)
        for (std::size_t i = 0; i < open[b].size(); ++i) {
          Instruction inst;
          if (open[b][i]->next(inst)) {
            got[{b, i}].push_back(inst);
            progress = true;
          }
        }
    }
    std::size_t k = 0;
    for (const auto& d : sequential) {
      if (d.block >= 4) break;
      auto& list = got[{d.block, d.warp}];
      REQUIRE_FALSE(list.empty());
      REQUIRE(same_instruction(list.front(), d.inst));
      list.erase(list.begin());
      ++k;
    }
    CHECK(k > 0);
    for (const auto& [key, list] : got) CHECK(list.empty());
  }
  fs::remove_all(dir);
}
