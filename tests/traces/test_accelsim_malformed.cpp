// Malformed Accel-Sim input throws InputError with file:line and the cause: bad lines, bad or
// truncated files, header keys given twice, blocks out of order or junk after the last one, a
// trace with no block, and a block too large for the chosen GPU.
#include <catch2/catch.hpp>
#include <filesystem>

#include "models/simulate.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/accelsim_error_helpers.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
namespace fs = std::filesystem;

TEST_CASE("malformed lines throw InputError with file:line and the cause", "[accelsim]") {
  // one_warp_trace puts the first instruction line on line 22.
  std::string e = decode_error(3, "00g0 ffffffff 0 NOP 0 0 ");
  CHECK(contains(e, "test.traceg:22: "));
  CHECK(contains(e, "bad hex digit"));
  CHECK(contains(decode_error(3, "0010 fffffff 0 NOP 0 0 "), "not 8 hex digits"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 R2 LDG.E 1 R4 4 3 0x1000 "), "address mode 3"));
  CHECK(contains(decode_error(3, "0010 00000001 1 R2 LDG.E 1 R4 4 2 0x1000 4 "), "unexpected field '4'"));
  CHECK(contains(decode_error(5, "0010 00000003 1 R2 LDG.E 1 R4 4 2 0x1000 4 "), "line ends before immediate"));
  CHECK(contains(decode_error(5, "0010 00000003 1 R2 LDG.E 1 R4 4 2 0x1000 "), "line ends before address delta"));
  CHECK(contains(decode_error(3, "0010 00000003 0 STG.E 1 R2 4 0 0x1000 "), "line ends before address"));
  CHECK(contains(decode_error(3, "0010 00000005 0 STG.E 1 R2 4 1 0x1000 4 "), "not one contiguous run"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 X2 MOV 0 0 "), "expected a register"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 R2 MOV 9 0 "), "source count 9"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 R2 MOV 0 3 "), "memory width 3"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 R2"), "line ends before opcode"));
  CHECK(contains(decode_error(3, "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000 x4 "), "stride"));
}

TEST_CASE("malformed files throw InputError with file:line and the cause", "[accelsim]") {
  std::string good = one_warp_trace(3, {"0000 ffffffff 0 NOP 0 0 ", "0010 ffffffff 0 EXIT 0 0 "});
  REQUIRE(read_error(good).empty());

  // insts = N with fewer lines, with more lines.
  std::string fewer = good;
  fewer.replace(fewer.find("insts = 2"), 9, "insts = 3");
  CHECK(contains(read_error(fewer), "announced insts = 3 but only 2 instruction lines follow"));
  std::string more = good;
  more.replace(more.find("insts = 2"), 9, "insts = 1");
  CHECK(contains(read_error(more), "test.traceg:23: "));
  CHECK(contains(read_error(more), "more lines than"));

  // Truncated anywhere: inside the body, inside the header.
  for (std::size_t cut : {good.size() - 3, good.find("warp = 0") + 3, good.find("0010 ffff"), good.find("#BEGIN_TB") + 12, std::size_t(40)}) {
    INFO(cut);
    CHECK(contains(read_error(good.substr(0, cut)), "truncated"));
  }
  CHECK(contains(read_error(good.substr(0, good.find("#traces"))), "file ends inside the header"));

  std::string key = good;
  key.insert(0, "-frobnication level = 3\n");
  std::string e = read_error(key);
  CHECK(contains(e, "test.traceg:1: "));
  CHECK(contains(e, "unknown header key 'frobnication level'"));

  std::string outside = good;
  outside.replace(outside.find("thread block = 0,0,0"), 20, "thread block = 1,0,0");
  CHECK(contains(read_error(outside), "outside the grid"));
  std::string warp = good;
  warp.replace(warp.find("warp = 0"), 8, "warp = 7");
  CHECK(contains(read_error(warp), "has only 1 warps"));
  CHECK(contains(read_error(traceg_header(6)), "newer than this reader knows"));
  std::string grid = good;
  grid.replace(grid.find("(1,1,1)"), 7, "(1,1)");
  CHECK(contains(read_error(grid), "three components"));
}

TEST_CASE("the simulator reads past the grid's last block: blocks out of order or repeated, junk after it", "[accelsim][models]") {
  // The GigaThread engine asks for blocks up to the grid's last id and no further; what follows
  // must still be checked, or a block written out of order is silently dropped (a fuzzed trace
  // ran with half its instructions while `trace info` refused it).
  const std::string dir = temp_dir("after-last");
  auto block = [](int b) {
    return "#BEGIN_TB\nthread block = " + std::to_string(b) +
           ",0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0 \n0010 ffffffff 0 EXIT 0 0 \n#END_TB\n";
  };
  auto run_error = [&](const std::string& text) {
    const std::string path = dir + "/k.traceg";
    write_file(path, text);
    return input_error_of([&] { warpsim::models::simulate({"hopper-h100", {}, "", {}, path, 1}); });
  };
  const std::string two = traceg_header(3, "(2,1,1)", "(32,1,1)");
  REQUIRE(run_error(two + block(0) + block(1)).empty());
  CHECK(contains(run_error(two + block(1) + block(0)), "thread block 0 comes after block 1"));
  CHECK(contains(run_error(traceg_header(3, "(1,1,1)", "(32,1,1)") + block(0) + block(0)), "comes after block 0"));
  const std::string junk = run_error(two + block(0) + block(1) + "garbage after the end\n");
  CHECK(contains(junk, "k.traceg:"));
  CHECK(contains(junk, "expected '#BEGIN_TB'"));
  fs::remove_all(dir);
}

TEST_CASE("a header key given twice is an error naming both lines", "[accelsim]") {
  std::string twice = one_warp_trace(3, {"0000 ffffffff 0 EXIT 0 0 "});
  const auto grid = twice.find("-grid dim");
  twice.insert(grid, "-grid dim = (4,1,1)\n");
  const std::string e = read_error(twice);
  CHECK(contains(e, "'-grid dim' is already given on line"));
  CHECK(contains(e, "test.traceg:"));
}

TEST_CASE("a block too large for the chosen GPU names the trace's header", "[accelsim][models]") {
  // The trace is valid; the limit is the preset's. The message used to say only "block: ...".
  const std::string dir = temp_dir("too-large");
  const std::string path = dir + "/k.traceg";
  write_file(path, traceg_header(3, "(1,1,1)", "(2048,1,1)") +
                       "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 \n#END_TB\n");
  const std::string e = input_error_of([&] { warpsim::models::simulate({"hopper-h100", {}, "", {}, path, 1}); });
  CHECK(contains(e, "k.traceg:1-"));
  CHECK(contains(e, "2048 threads per block exceeds hopper-h100's limit of 1024"));
  fs::remove_all(dir);
}

TEST_CASE("a trace that ends after its header is an input error, not a kernel of no blocks", "[accelsim]") {
  // Blocks that never ran are left out (FORMAT.md), but a file with none was cut short; before,
  // `run` simulated an empty kernel and `trace convert` wrote it out as valid.
  const std::string header = traceg_header(3, "(1,1,1)", "(32,1,1)");
  CHECK(contains(read_error(header), "no thread block follows the header"));
  CHECK(contains(read_error(header + "\n\n"), "no thread block follows the header"));
  CHECK(contains(read_error(header.substr(0, header.size() - 3)), "truncated"));
}
