// The Accel-Sim reader: line decoding per tracer version, address modes, opcode classes, the
// four real traces of ../shared/traces against their README, .xz input, and malformed input.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "models/simulate.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/accelsim/byte_source.hpp"
#include "traces/accelsim/decoded_line_cache.hpp"
#include "traces/accelsim/kernelslist.hpp"
#include "traces/accelsim/opcode_table.hpp"
#include "traces/open_workload.hpp"
#include "traces/wtrace/wtrace_writer.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
using warpsim::sim::InputError;
namespace fs = std::filesystem;

namespace {

// Message of the InputError that `f` throws ("" if none).
template <typename F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string decode_error(int version, const std::string& line) {
  return input_error_of([&] { decode_one(version, line); });
}

std::string read_error(const std::string& text) {
  return input_error_of([&] {
    auto s = source_from_text(text);
    read_all(*s);
  });
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("v3 lines from the BFS trace decode as FORMAT.md describes", "[accelsim]") {
  Instruction a = decode_one(3, "0060 ffffffff 1 R4 IADD3 2 R6 R255 0 ");
  CHECK(a.pc == 0x60);
  CHECK(a.active_mask == 0xffffffffu);
  CHECK(a.unit == Unit::Int);
  CHECK(a.dst_count == 1);
  CHECK(a.dst[0] == 4);
  CHECK(a.src_count == 1);  // RZ is not a dependence
  CHECK(a.src[0] == 6);
  CHECK(a.src[1] == kNoReg);
  CHECK_FALSE(a.is_memory());

  Instruction stride = decode_one(3, "0090 ffffffff 1 R0 LDG.E.U8 1 R4 1 1 0x7fc841520000 1 ");
  CHECK(stride.unit == Unit::LdSt);
  CHECK(stride.mem_op == MemOp::Load);
  CHECK(stride.space == MemSpace::Global);
  CHECK(stride.width == 1);
  for (int lane = 0; lane < 32; ++lane) CHECK(stride.addr[lane] == 0x7fc841520000u + lane);

  // A buffer entry a library stream left marked uniform_address: the decoder clears it.
  {
    auto source = source_from_text(one_warp_trace(3, {"0090 ffffffff 1 R0 LDG.E.U8 1 R4 1 1 0x7fc841520000 1 "}));
    auto warps = source->open_block(0);
    Instruction reused;
    reused.uniform_address = true;
    REQUIRE(warps[0]->next(reused));
    CHECK_FALSE(reused.uniform_address);
    CHECK(reused.address(31) == 0x7fc841520000u + 31);
  }

  Instruction single = decode_one(3, "01d0 00000001 1 R14 LDG.E.U8 1 R14 1 2 0x7fc8415229eb ");
  CHECK(single.addr[0] == 0x7fc8415229ebu);

  // 10 active lanes -> 9 deltas, each from the previous active lane.
  Instruction holes = decode_one(3, "00d0 6190a142 0 STG.E.U8 2 R4 R255 1 2 0x7fc841520001 5 2 5 2 5 3 1 5 1 ");
  CHECK(holes.mem_op == MemOp::Store);
  CHECK(holes.dst_count == 0);
  std::vector<std::int64_t> deltas{0, 5, 2, 5, 2, 5, 3, 1, 5, 1};
  std::uint64_t expect = 0x7fc841520001u;
  int k = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(0x6190a142u >> lane & 1)) {
      CHECK(holes.addr[lane] == 0);
      continue;
    }
    expect += deltas[k++];
    CHECK(holes.addr[lane] == expect);
  }
  CHECK(k == 10);

  // All lanes predicated off: the line stays, with mode 1 "0x0 0" and no addresses.
  Instruction off = decode_one(3, "01f0 00000000 1 R7 LDG.E 1 R4 4 1 0x0 0 ");
  CHECK(off.active_mask == 0);
  CHECK(off.is_memory());
  CHECK(off.active_lanes() == 0);
}

TEST_CASE("v4 lineinfo, v5 immediates, legacy block fields and list_all", "[accelsim]") {
  // v4 with lineinfo: a leading line number; shared broadcast (stride 0), 16 bytes.
  std::string v4 = traceg_header(4, "(1,1,1)", "(32,1,1)", 75, true) +
                   "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n12 0278 ffffffff 1 R12 LDS.U.128 1 R2 16 1 0x80 0 \n#END_TB\n";
  auto all = read_all(*source_from_text(v4));
  REQUIRE(all.size() == 1);
  CHECK(all[0].inst.pc == 0x278);
  CHECK(all[0].inst.space == MemSpace::Shared);
  CHECK(all[0].inst.width == 16);
  CHECK(all[0].inst.addr[31] == 0x80);

  // v5: trailing immediate, also after base_delta's k-1 deltas (the Accel-Sim parser quirk).
  CHECK(decode_one(5, "0060 ffffffff 1 R0 MOV 0 0 1073742663 ").unit == Unit::Int);
  CHECK(decode_one(5, "0030 ffffffff 1 R1 VIADD 1 R1 0 -264 ", 90).dst[0] == 1);
  std::string btree = "0870 f1ffffff 1 R28 LDL 1 R6 4 2 0xfffc50";
  for (int i = 0; i < 28; ++i) btree += i == 5 ? " 4" : " 0";
  Instruction local = decode_one(5, btree + " 0 ", 90);
  CHECK(local.space == MemSpace::Local);
  CHECK(local.addr[0] == 0xfffc50);
  CHECK(local.addr[6] == 0xfffc54);  // lane 6 is the 6th delta's lane
  CHECK(local.addr[31] == 0xfffc54);

  // Legacy (no version line) and "1.2": four leading decimal fields.
  Instruction legacy = decode_one(0, "0 0 0 0 0290 ffff0000 1 R8 LDG.E.SYS 1 R2 4 1 0x00007fe033702880 4");
  CHECK(legacy.pc == 0x290);
  CHECK(legacy.addr[16] == 0x7fe033702880u);
  CHECK(legacy.addr[31] == 0x7fe033702880u + 15 * 4);
  CHECK(decode_one(1, "1 0 0 3 0010 ffffffff 0 NOP 0 0").unit == Unit::Control);

  Instruction list = decode_one(3, "0100 00000005 0 STG.E 1 R2 4 0 0x0000000000001000 0x0000000000002000 ");
  CHECK(list.addr[0] == 0x1000);
  CHECK(list.addr[1] == 0);
  CHECK(list.addr[2] == 0x2000);
}

TEST_CASE("generic LD/ST take their space from the shared and local windows", "[accelsim]") {
  // Header of traceg_header(3): shmem base 0x7f0000000000, local base 0x7f0100000000.
  Instruction shared = decode_one(3, "0100 00000003 1 R2 LD.E 1 R4 4 1 0x7f0000000100 4 ");
  CHECK(shared.space == MemSpace::Shared);
  CHECK(shared.addr[0] == 0x100);
  CHECK(shared.addr[1] == 0x104);
  Instruction local = decode_one(3, "0100 00000001 0 ST.E 2 R4 R5 8 2 0x7f0100fffbd0 ");
  CHECK(local.space == MemSpace::Local);
  CHECK(local.mem_op == MemOp::Store);
  CHECK(local.addr[0] == 0xfffbd0);
  Instruction global = decode_one(3, "0100 00000001 1 R2 ATOM.E.ADD 2 R4 R5 4 2 0x7fc841520000 ");
  CHECK(global.space == MemSpace::Global);
  CHECK(global.mem_op == MemOp::Atomic);
  CHECK(global.addr[0] == 0x7fc841520000u);
}

TEST_CASE("opcode classes: control, barriers, cache operators, units", "[accelsim]") {
  CHECK(decode_one(3, "0050 00000000 0 EXIT 0 0 ").control == Control::Exit);
  Instruction bar = decode_one(3, "0050 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 ");
  CHECK(bar.control == Control::Barrier);
  CHECK(bar.unit == Unit::Control);
  CHECK(decode_one(3, "0050 ffffffff 0 BAR.ARV 0 0 ").control == Control::None);
  Instruction membar = decode_one(3, "0050 ffffffff 0 MEMBAR.SC.GPU 0 0 ");
  CHECK(membar.unit == Unit::Control);
  CHECK(membar.control == Control::None);
  CHECK(decode_one(3, "0050 ffffffff 0 DEPBAR.LE 0 0 ").unit == Unit::Control);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 FFMA 3 R1 R2 R3 0 ").unit == Unit::Fp32);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 DFMA 3 R1 R2 R3 0 ").unit == Unit::Fp64);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 MUFU.EX2 1 R1 0 ").unit == Unit::Sfu);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 HMMA.16816.F32 2 R4 R8 0 ").unit == Unit::Tensor);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 LDG.E.CONSTANT 1 R4 4 1 0x1000 4 ").cache_op == CacheOp::ReadOnly);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 LDG.E.EF 1 R4 4 1 0x1000 4 ").cache_op == CacheOp::Streaming);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 LDG.E.STRONG.GPU 1 R4 4 1 0x1000 4 ").cache_op == CacheOp::Global);
  CHECK(decode_one(3, "0050 ffffffff 1 R2 LDG.E.128 1 R4 16 1 0x1000 16 ").cache_op == CacheOp::Default);
  // sm_61 has no HMMA and no uniform datapath; sm_90 has VIADD.
  CHECK(accelsim::classify_opcode("HMMA.884", 61) == std::nullopt);
  CHECK(accelsim::classify_opcode("ULDC.64", 61) == std::nullopt);
  CHECK(accelsim::classify_opcode("XMAD.MRG", 61)->unit == Unit::Int);
  CHECK(accelsim::classify_opcode("XMAD", 70) == std::nullopt);
  CHECK(accelsim::classify_opcode("VIADD", 90)->unit == Unit::Int);
  CHECK(accelsim::classify_opcode("LDGSTS.E.BYPASS.128", 80)->space == accelsim::SpaceRule::Global);
  CHECK(accelsim::opcode_table_for(89).sm == 86);
  CHECK_FALSE(accelsim::opcode_table_for(89).exact);
}

TEST_CASE("an unknown opcode is classed by default and reported as a warning", "[accelsim]") {
  auto source = source_from_text(one_warp_trace(3, {"0010 ffffffff 1 R2 FROBNICATE.X 1 R3 0 ", "0020 ffffffff 1 R2 FROBNICATE 1 R3 0 ",
                                                    "0030 00000001 1 R2 FROBLOAD 1 R3 4 2 0x1000 "}));
  auto all = read_all(*source);
  REQUIRE(all.size() == 3);
  CHECK(all[0].inst.unit == Unit::Int);
  CHECK(all[2].inst.mem_op == MemOp::Load);
  CHECK(all[2].inst.space == MemSpace::Global);
  auto warnings = source->warnings();
  REQUIRE(warnings.size() == 2);  // once per mnemonic
  CHECK(contains(warnings[0], "unknown opcode 'FROBNICATE'"));
  CHECK(contains(warnings[0], "integer"));
  CHECK(contains(warnings[1], "FROBLOAD"));
  // A Volta-only opcode in a Pascal trace is unknown too.
  auto pascal = source_from_text(one_warp_trace(3, {"0010 ffffffff 1 R2 HMMA.884 1 R3 0 "}, 61));
  read_all(*pascal);
  REQUIRE(pascal->warnings().size() == 1);
  CHECK(contains(pascal->warnings()[0], "sm_61"));
}

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

TEST_CASE("kernelslist.g: memcpy steps, launches, a missing kernel file", "[accelsim]") {
  std::string dir = temp_dir("kernelslist");
  write_file(dir + "/kernel-1.traceg", one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "}));
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\n\nkernel-1.traceg\nsomething else\n");
  Workload w = open_workload(dir + "/kernelslist.g");
  REQUIRE(w.steps.size() == 2);
  CHECK(w.steps[0].kind == WorkloadStep::Kind::Memcpy);
  CHECK(w.steps[0].memcpy.device_address == 0x7fc841500000u);
  CHECK(w.steps[0].memcpy.bytes == 32768);
  CHECK(w.steps[1].launch.label == "kernel-1.traceg");
  CHECK(w.steps[1].launch.open()->info().name == "_Z4testv");
  CHECK(open_workload(dir).steps.size() == 2);  // the directory works too

  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\nkernel-2.traceg\n");
  std::string e = input_error_of([&] { open_workload(dir + "/kernelslist.g"); });
  CHECK(contains(e, "kernelslist.g:2: "));
  CHECK(contains(e, "'kernel-2.traceg' not found"));
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc84150zz00,32768\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "kernelslist.g:1: "));
  // A copy whose range wraps past 2^64 (fuzzed: accepted, and then invalidated a wrapped range).
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0xffffffffffffffff,4096\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "runs past the end"));
  CHECK(contains(input_error_of([&] { open_workload(dir + "/nothing.traceg"); }), "no such file"));
  // A list that launches nothing (only copies, or not a kernelslist at all) is the wrong file.
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\nsomething else\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "no kernel launch"));
  write_file(dir + "/kernelslist.g", "x");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "kernelslist.g: no kernel launch"));
  fs::remove_all(dir);
}

TEST_CASE("kernelslist.g naming X.traceg reads X.traceg.xz when only that exists", "[accelsim][xz]") {
  std::string dir = temp_dir("kernelslist-xz");
  write_file(dir + "/kernel-1.traceg", one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "}));
  REQUIRE(std::system(("xz " + dir + "/kernel-1.traceg").c_str()) == 0);  // leaves only kernel-1.traceg.xz
  REQUIRE_FALSE(fs::exists(dir + "/kernel-1.traceg"));
  write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
  Workload w = open_workload(dir + "/kernelslist.g");
  REQUIRE(w.steps.size() == 1);
  CHECK(w.steps[0].launch.label == "kernel-1.traceg");
  CHECK(w.steps[0].launch.open()->info().name == "_Z4testv");

  // Both present: the name as written wins (here a different kernel, to tell them apart).
  {
    std::string text = one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "});
    text.replace(text.find("_Z4testv"), 8, "_Z4liveV");
    write_file(dir + "/kernel-1.traceg", text);
  }
  CHECK(open_workload(dir + "/kernelslist.g").steps[0].launch.open()->info().name == "_Z4liveV");

  // Neither: the error names both places looked at.
  write_file(dir + "/kernelslist.g", "kernel-2.traceg\n");
  std::string e = input_error_of([&] { open_workload(dir + "/kernelslist.g"); });
  CHECK(contains(e, "kernelslist.g:1: "));
  CHECK(contains(e, "kernel-2.traceg.xz"));

  // The calibration corpus is stored this way (issue 25).
  Workload mm = open_workload(shared_path("calibration/h100/apps/matrixMul/kernelslist.g"));
  std::size_t launches = 0;
  for (const auto& step : mm.steps)
    if (step.kind == WorkloadStep::Kind::Launch) {
      ++launches;
      CHECK(step.launch.open()->info().block.count() == 256);
    }
  CHECK(launches == 2);
  fs::remove_all(dir);
}

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

TEST_CASE("a .traceg.xz reads the same as its .traceg", "[accelsim][xz]") {
  std::string dir = temp_dir("xz");
  std::string src = shared_path("traces/vectoradd-sm80-v5/kernel-1.traceg");
  fs::copy_file(src, dir + "/kernel-1.traceg");
  REQUIRE(std::system(("xz -k " + dir + "/kernel-1.traceg").c_str()) == 0);
  accelsim::TracegKernelSource text(dir + "/kernel-1.traceg"), xz(dir + "/kernel-1.traceg.xz");
  auto a = read_all(text), b = read_all(xz);
  REQUIRE(a.size() == 26601);
  REQUIRE(a.size() == b.size());
  std::string why;
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(same_instruction(a[i].inst, b[i].inst, &why));

  // A truncated .xz is an InputError too.
  std::string cut = dir + "/cut.traceg.xz";
  {
    std::ifstream in(dir + "/kernel-1.traceg.xz", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  std::string e = input_error_of([&] {
    accelsim::TracegKernelSource s(cut);
    read_all(s);
  });
  CHECK(contains(e, "cut.traceg.xz"));
  fs::remove_all(dir);
}

TEST_CASE("an .xz file: streams one after another, padding, and junk after the end", "[accelsim][xz]") {
  std::string dir = temp_dir("xz-streams");
  auto xz_of = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    REQUIRE(std::system(("xz -f " + dir + "/" + name).c_str()) == 0);
    std::ifstream in(dir + "/" + name + ".xz", std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  auto read_xz = [&](const std::string& bytes) {
    const std::string path = dir + "/t.xz";
    std::ofstream(path, std::ios::binary) << bytes;
    auto source = accelsim::open_byte_source(path);
    std::string out;
    char buffer[7];  // small pieces: stream ends fall inside a read
    for (std::size_t n; (n = source->read(buffer, sizeof buffer)) > 0;) out.append(buffer, n);
    return out;
  };
  const std::string hello = xz_of("a", "hello\n"), world = xz_of("b", std::string(100000, 'w') + "\n");
  CHECK(read_xz(hello) == "hello\n");
  CHECK(read_xz(hello + world) == "hello\n" + std::string(100000, 'w') + "\n");  // `cat a.xz b.xz`
  CHECK(read_xz(hello + std::string(8, '\0') + world) == "hello\n" + std::string(100000, 'w') + "\n");
  CHECK(read_xz(hello + std::string(4, '\0')) == "hello\n");  // stream padding
  // Junk appended was reported as "truncated"; it now says what and where.
  std::string e = input_error_of([&] { read_xz(hello + "junk"); });
  CHECK(contains(e, "t.xz: unexpected bytes after the end of the .xz stream, at byte " + std::to_string(hello.size())));
  e = input_error_of([&] { read_xz(hello + std::string(3, '\0') + "\xFD" + "7zX"); });  // a cut-off magic
  CHECK(contains(e, "at byte " + std::to_string(hello.size() + 3)));
  CHECK(contains(input_error_of([&] { read_xz(hello.substr(0, hello.size() - 5)); }), "truncated .xz file"));
  fs::remove_all(dir);
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

TEST_CASE("decoded lines are remembered by their whole text, and forgetting one never mistakes it for another", "[accelsim]") {
  accelsim::DecodedLineCache cache;
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < 3 * accelsim::DecodedLineCache::kEntries; ++k) lines.push_back("00" + std::to_string(k) + " ffffffff");
  auto instruction_for = [](std::size_t k) {
    Instruction inst;
    inst.pc = static_cast<std::uint32_t>(k);
    return inst;
  };
  for (std::size_t k = 0; k < lines.size(); ++k) {
    CHECK(cache.find(lines[k]) == nullptr);
    cache.remember(lines[k], instruction_for(k));
    REQUIRE(cache.find(lines[k]));
    CHECK(cache.find(lines[k])->pc == k);
  }
  std::size_t remembered = 0;
  for (std::size_t k = 0; k < lines.size(); ++k)
    if (const Instruction* found = cache.find(lines[k])) {
      CHECK(found->pc == k);
      ++remembered;
    }
  CHECK(remembered > 0);
  CHECK(remembered <= accelsim::DecodedLineCache::kEntries);
}
