// The Accel-Sim reader's line decoding: fields per tracer version (v3, v4 lineinfo, v5
// immediates, legacy), address modes, generic LD/ST spaces, opcode classes and unknown opcodes,
// and the cache of decoded lines.
#include <catch2/catch.hpp>

#include "tests/traces/accelsim_error_helpers.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/accelsim/decoded_line_cache.hpp"
#include "traces/accelsim/opcode_table.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;

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
    // Kept at its second decoding, not its first: most memory lines are never seen again.
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

TEST_CASE("a decoded line is looked for first as the follower of the line before, by its text", "[accelsim]") {
  accelsim::DecodedLineCache cache;
  const std::vector<std::string> code = {"0000 ffffffff 1 R1 S2R 0 0", "0010 ffffffff 1 R2 IADD3 2 R1 R1 0",
                                         "0020 ffffffff 0 EXIT 0 0"};
  auto read = [&](const std::string& line, std::uint32_t pc) {
    if (const Instruction* found = cache.find(line)) return found->pc;
    Instruction inst;
    inst.pc = pc;
    cache.remember(line, inst);
    return pc;
  };
  // Two warps decode the code (each line kept at its second decoding); the next two find it.
  for (int warp = 0; warp < 2; ++warp)
    for (std::size_t k = 0; k < code.size(); ++k) read(code[k], static_cast<std::uint32_t>(16 * k));
  CHECK(cache.counts().missed == 6);
  for (int warp = 0; warp < 2; ++warp)
    for (std::size_t k = 0; k < code.size(); ++k) CHECK(read(code[k], 999) == 16 * k);
  // Lines are linked as they are kept: the third warp finds its first line by hash (and links it
  // after the last line), every other line as the follower of the one before.
  CHECK(cache.counts().by_hash == 1);
  CHECK(cache.counts().in_order == 5);
  // A line that is not the follower is found by hash, and never mistaken for the follower.
  CHECK(read(code[0], 999) == 0);
  CHECK(read(code[2], 999) == 32);
  CHECK(read("0010 ffffffff 1 R2 IADD3 2 R1 R9 0", 48) == 48);
  CHECK(read(code[1], 999) == 16);
}
