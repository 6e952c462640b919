// The scoreboard keeps ready cycles as 31-bit offsets from the warp's epoch (scoreboard.hpp):
// exact while they fit, and after a write 2^31 cycles later the epoch moves and older writes
// stay in the past. S2.1/S2.7: an instruction waits for its sources and destinations.
#include <catch2/catch.hpp>
#include <vector>

#include "models/core/scoreboard.hpp"

using warpsim::models::Scoreboard;
using warpsim::traces::Instruction;
using warpsim::traces::MemOp;
using warpsim::traces::Reg;

namespace {

Instruction writes(Reg dst, Reg src = warpsim::traces::kNoReg) {
  Instruction in;
  in.dst_count = 1;
  in.dst[0] = dst;
  in.src_count = src == warpsim::traces::kNoReg ? 0 : 1;
  in.src[0] = src;
  return in;
}

Instruction reads(Reg a, Reg b) {
  Instruction in;
  in.src_count = 2;
  in.src[0] = a;
  in.src[1] = b;
  return in;
}

}  // namespace

TEST_CASE("readiness is the latest operand and says whether memory writes it", "[models][core]") {
  Scoreboard sb;
  sb.reset(1'000);
  CHECK(sb.readiness(reads(1, 2)).ready == 0);  // nothing pending since the epoch
  sb.write(writes(1), 1'010, false);            // an ALU result
  sb.write(writes(2), 1'700, true);             // a load
  auto r = sb.readiness(reads(1, 2));
  CHECK(r.ready == 1'700);
  CHECK(r.memory);
  r = sb.readiness(reads(1, 3));
  CHECK(r.ready == 1'010);
  CHECK_FALSE(r.memory);
  // Equal cycles: the first operand named decides the reason.
  sb.write(writes(3), 1'700, false);
  CHECK_FALSE(sb.readiness(reads(3, 2)).memory);
  CHECK(sb.readiness(reads(2, 3)).memory);
  // A destination counts too (write after write), and RZ is never written.
  CHECK(sb.ready_cycle(writes(2)) == 1'700);
  sb.write(writes(warpsim::traces::kRegRZ), 5'000, false);
  CHECK(sb.ready_cycle(reads(warpsim::traces::kRegRZ, 1)) == 1'010);
}

TEST_CASE("a wide load marks the registers it fills; reset clears them for the next warp", "[models][core]") {
  Scoreboard sb;
  sb.reset(0);
  Instruction load = writes(8);
  load.mem_op = MemOp::Load;
  load.width = 16;  // R8..R11
  sb.write(load, 900, true);
  for (Reg r = 8; r < 12; ++r) CHECK(sb.ready_cycle(reads(r, r)) == 900);
  CHECK(sb.ready_cycle(reads(12, 7)) == 0);
  sb.reset(2'000);
  for (Reg r = 8; r < 12; ++r) CHECK(sb.ready_cycle(reads(r, r)) == 0);
}

TEST_CASE("ready cycles are exact within 2^31 cycles of the epoch and stay in the past after a rebase",
          "[models][core]") {
  constexpr std::uint64_t k31 = std::uint64_t{1} << 31;
  Scoreboard sb;
  sb.reset(0);
  sb.write(writes(1), k31 - 1, true);  // the last offset that fits
  sb.write(writes(2), 5'000, false);
  CHECK(sb.ready_cycle(reads(1, 1)) == k31 - 1);
  // 2^31 + 10 does not fit: the epoch moves to 2^30 + 10. R1 keeps its cycle and its memory
  // bit; R2's write, older than the new epoch, reads as landed (0).
  sb.write(writes(3), k31 + 10, false);
  CHECK(sb.ready_cycle(reads(3, 3)) == k31 + 10);
  const auto r1 = sb.readiness(reads(1, 1));
  CHECK(r1.ready == k31 - 1);
  CHECK(r1.memory);
  CHECK(sb.ready_cycle(reads(2, 2)) == 0);
  // A jump far beyond 31 bits: exact again; everything before reads as landed.
  const std::uint64_t late = std::uint64_t{1} << 40;
  sb.write(writes(4), late, true);
  CHECK(sb.ready_cycle(reads(1, 3)) == 0);
  const auto r4 = sb.readiness(reads(3, 4));
  CHECK(r4.ready == late);
  CHECK(r4.memory);
}

TEST_CASE("every register and predicate has an entry of its own, and reset clears them all", "[models][core]") {
  // The entries are stored predicates first (scoreboard.hpp), so this pins that no register
  // shares an entry with another: R0..R254 and P0..P7, each written with its own cycle.
  Scoreboard sb;
  sb.reset(0);
  std::vector<Reg> regs;
  for (Reg r = 0; r < 255; ++r) regs.push_back(r);
  for (int p = 0; p < 8; ++p) regs.push_back(warpsim::traces::predicate_reg(p));
  for (std::size_t i = 0; i < regs.size(); ++i) sb.write(writes(regs[i]), 100 + i, i % 2 == 1);
  for (std::size_t i = 0; i < regs.size(); ++i) {
    const auto r = sb.readiness(reads(regs[i], regs[i]));
    CHECK(r.ready == 100 + i);
    CHECK(r.memory == (i % 2 == 1));
  }
  CHECK(sb.ready_cycle(reads(warpsim::traces::kRegRZ, warpsim::traces::kRegRZ)) == 0);  // RZ is never written
  sb.reset(1'000);
  for (const Reg reg : regs) CHECK(sb.ready_cycle(reads(reg, reg)) == 0);
}
