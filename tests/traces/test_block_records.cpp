// The block encoding of .wtrace version 2 (traces/wtrace/FORMAT.md): every instruction comes back
// exactly, whatever its addresses, masks and order, and the coding rules that make a kernel's
// blocks small hold (a warp stepping through its table, a loop's addresses from their stride).
#include <catch2/catch.hpp>

#include "sim/errors.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/wtrace/block_record_builder.hpp"

using namespace warpsim::traces;
using warpsim::test::same_instruction;

namespace {

Instruction alu(std::uint32_t pc) {
  Instruction inst;
  inst.pc = pc;
  inst.unit = Unit::Fp32;
  inst.dst_count = 1;
  inst.dst[0] = static_cast<Reg>(pc / 16 % 200);
  inst.src_count = 2;
  inst.src[0] = predicate_reg(3);
  inst.src[1] = 7;
  return inst;
}

template <typename Address>
Instruction load(std::uint32_t pc, std::uint32_t mask, Address address) {
  Instruction inst;
  inst.pc = pc;
  inst.unit = Unit::LdSt;
  inst.mem_op = MemOp::Load;
  inst.space = MemSpace::Global;
  inst.width = 4;
  inst.active_mask = mask;
  for (int lane = 0; lane < kWarpSize; ++lane) inst.addr[static_cast<std::size_t>(lane)] = (mask >> lane & 1) ? address(lane) : 0;
  return inst;
}

// Encodes `warps` (instructions added warp by warp, in the order given) and reads them back.
std::vector<std::vector<Instruction>> round_trip(const std::vector<std::vector<Instruction>>& warps,
                                                 std::shared_ptr<const wtrace::BlockRecord>* kept = nullptr) {
  wtrace::BlockRecordBuilder builder;
  builder.begin(3, static_cast<std::uint32_t>(warps.size()));
  // Interleaved, as the Accel-Sim reader may meet a block's warps: the last warp first.
  for (std::size_t w = warps.size(); w-- > 0;)
    for (const auto& inst : warps[w]) builder.add(static_cast<std::uint32_t>(w), inst);
  KernelInfo kernel;
  kernel.grid = {8, 1, 1};
  kernel.block = {static_cast<std::uint32_t>(32 * warps.size()), 1, 1};
  auto record = std::make_shared<const wtrace::BlockRecord>(wtrace::parse_block_record(builder.finish(), kernel, "test block"));
  if (kept) *kept = record;
  std::vector<std::vector<Instruction>> out(warps.size());
  auto streams = wtrace::open_record_warps(record);
  REQUIRE(streams.size() == warps.size());
  for (std::size_t w = 0; w < warps.size(); ++w) {
    Instruction inst;
    while (streams[w]->next(inst)) out[w].push_back(inst);
  }
  return out;
}

void check_same(const std::vector<std::vector<Instruction>>& a, const std::vector<std::vector<Instruction>>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t w = 0; w < a.size(); ++w) {
    REQUIRE(a[w].size() == b[w].size());
    for (std::size_t i = 0; i < a[w].size(); ++i) {
      std::string why;
      INFO("warp " << w << " instruction " << i << " field " << why);
      REQUIRE(same_instruction(a[w][i], b[w][i], &why));
    }
  }
}

}  // namespace

TEST_CASE("block records give back every instruction: address layouts, masks, loops, empty warps", "[wtrace][records]") {
  std::vector<Instruction> looping;
  for (int i = 0; i < 6; ++i) {
    looping.push_back(alu(0x100));
    // One stride; rows of 16 lanes (a 16 x 2 block); lanes in no pattern; one lane; none.
    looping.push_back(load(0x110, kFullMask, [](int lane) { return 0x7000'0000ull + 4u * lane; }));
    looping.push_back(load(0x120, kFullMask, [](int lane) { return 0x7100'0000ull + 4u * (lane % 16) + 1024u * (lane / 16); }));
    looping.push_back(load(0x130, 0x00ff00f3u, [](int lane) { return 0x7200'0000ull + 97u * lane * lane; }));
    looping.push_back(load(0x140, 0x00010000u, [](int) { return 0x20ull; }));
    looping.push_back(load(0x150, 0, [](int) { return 0ull; }));
    Instruction divergent = alu(0x160);
    divergent.active_mask = 0x0000ffffu;
    looping.push_back(divergent);
    looping.push_back(divergent);  // the same mask again
    Instruction exit = alu(0x170);
    exit.control = i == 5 ? Control::Exit : Control::Barrier;
    looping.push_back(exit);
  }
  // More static memory instructions than a warp's address slots, each run twice.
  std::vector<Instruction> many;
  for (int round = 0; round < 2; ++round)
    for (std::uint32_t k = 0; k < 3 * wtrace::kAddressSlots; ++k)
      many.push_back(load(0x1000 + 16 * k, kFullMask, [&](int lane) { return 0x8000'0000ull + 4096ull * k + 8u * lane; }));
  const std::vector<std::vector<Instruction>> warps = {looping, many, {}, {alu(0x10)}};
  check_same(warps, round_trip(warps));
}

TEST_CASE("block records: a warp stepping through its table takes one byte per instruction", "[wtrace][records]") {
  std::vector<Instruction> straight, loop;
  for (std::uint32_t pc = 0; pc < 400 * 16; pc += 16) straight.push_back(alu(pc));
  for (int i = 0; i < 50; ++i)
    for (std::uint32_t pc = 0; pc < 8 * 16; pc += 16) loop.push_back(alu(pc));  // back by 7 entries each time round
  std::shared_ptr<const wtrace::BlockRecord> record;
  check_same({straight, loop}, round_trip({straight, loop}, &record));
  CHECK(record->warps[0].size == straight.size());
  CHECK(record->warps[1].size == loop.size());
}

TEST_CASE("block records: a loop's memory instruction is coded from its own last address", "[wtrace][records]") {
  // Two loads a loop iteration, 256 MiB apart, each moving 4 KiB an iteration. From the second
  // iteration on, each costs its code byte, a 2-byte delta (4096, from its own last address),
  // the layout byte and a 1-byte stride: 5 bytes. Coded from the warp's last address instead,
  // every delta would be the 256 MiB between the two (5 bytes of varint alone).
  std::vector<Instruction> warp;
  for (std::uint64_t i = 0; i < 10; ++i) {
    warp.push_back(load(0x200, kFullMask, [&](int lane) { return 0x1000'0000ull + 4096 * i + 4u * lane; }));
    warp.push_back(load(0x210, kFullMask, [&](int lane) { return 0x2000'0000ull + 4096 * i + 4u * lane; }));
  }
  std::shared_ptr<const wtrace::BlockRecord> record;
  check_same({warp}, round_trip({warp}, &record));
  // The first iteration: code, a 5-byte delta (from 0, then from the first load), layout, stride.
  const std::size_t first_iteration = 2 * (1 + 5 + 1 + 1);
  CHECK(record->warps[0].size == first_iteration + 9 * 2 * 5);
}

TEST_CASE("a malformed block record is refused, and a warp's bad bytes name the block", "[wtrace][records]") {
  wtrace::BlockRecordBuilder builder;
  builder.begin(0, 1);
  builder.add(0, load(0x10, kFullMask, [](int lane) { return 0x1000ull + 4u * lane; }));
  const std::vector<std::uint8_t> good = builder.finish();
  KernelInfo kernel;
  CHECK_NOTHROW(wtrace::parse_block_record(good, kernel, "b"));
  KernelInfo two_warps;
  two_warps.block = {64, 1, 1};
  CHECK_THROWS_AS(wtrace::parse_block_record(good, two_warps, "b"), wtrace::DecodeError);
  std::vector<std::uint8_t> cut(good.begin(), good.end() - 1);
  CHECK_THROWS_AS(wtrace::parse_block_record(cut, kernel, "b"), wtrace::DecodeError);
  // The instruction's layout byte (after its code byte and 2-byte address delta) made invalid:
  // the block parses, the warp fails when it reaches the instruction.
  std::vector<std::uint8_t> bad = good;
  bad[bad.size() - 2] = 9;
  auto record = std::make_shared<const wtrace::BlockRecord>(wtrace::parse_block_record(bad, kernel, "file.wtrace: block 0"));
  auto warps = wtrace::open_record_warps(record);
  Instruction inst;
  try {
    warps[0]->next(inst);
    FAIL("a bad layout byte was accepted");
  } catch (const warpsim::sim::InputError& e) {
    CHECK(std::string(e.what()).find("file.wtrace: block 0: malformed instruction data in warp 0: bad address layout") !=
          std::string::npos);
  }
}
