// latency.taken_branch: after a taken branch a warp fetches at the target before it issues again
// (h100-measured/branch_cost.csv). One warp on one SM, so the cycle counts follow from the rule.
#include <catch2/catch.hpp>

#include "tests/models/one_sm_run.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

// `passes` passes of a two-instruction loop at 0x100: an FP32 instruction that depends on
// nothing, then a branch at 0x110 back to it (taken) or, with `taken` false, on to the next
// pass laid out after it (not taken). EXIT follows the last pass.
ProgramKernel::Program loop(int passes, bool taken) {
  return [=](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p;
    for (int k = 0; k < passes; ++k) {
      const std::uint32_t at = taken ? 0x100 : 0x100 + 0x20 * std::uint32_t(k);
      Instruction work = op(traces::Unit::Fp32, traces::Reg(k % 200));
      work.pc = at;
      Instruction branch = op(traces::Unit::Control, traces::kNoReg);
      branch.pc = at + 0x10;
      p.push_back(work);
      p.push_back(branch);
    }
    Instruction exit = exit_op();
    exit.pc = (taken ? 0x100 : 0x100 + 0x20 * std::uint32_t(passes - 1)) + 0x20;
    p.push_back(exit);
    return p;
  };
}

}  // namespace

TEST_CASE("a taken branch holds its warp latency.taken_branch cycles; one not taken does not", "[models][sm]") {
  // hopper-h100: each pass issues its instruction and the branch on consecutive cycles. Taken,
  // the next pass's instruction issues latency.taken_branch (10) after the branch, not the
  // cycle after: 9 cycles more for each of the 99 branches taken (the last falls through).
  const Outcome taken = run_on("hopper-h100", 1, 32, loop(100, true));
  const Outcome free = run_on("hopper-h100", 1, 32, loop(100, true), {"latency.taken_branch=0"});
  const Outcome straight = run_on("hopper-h100", 1, 32, loop(100, false));
  CHECK(taken.totals.warp_instructions == 201);
  CHECK(free.totals.cycles == straight.totals.cycles);
  CHECK(taken.totals.cycles == free.totals.cycles + 99 * 9);
  // What holds the warp is the fetch, not an operand: those cycles are no-eligible stalls.
  CHECK(taken.state_fraction(models::SchedulerState::NoEligible) >
        free.state_fraction(models::SchedulerState::NoEligible));
}

TEST_CASE("a taken branch's wait and an operand's overlap: the later decides", "[models][sm]") {
  // The instruction after the branch reads the result of the one before it (FP32, latency 4 on
  // hopper-h100): it could issue 4 cycles after that one, 3 after the branch; the branch's 10
  // cycles decide. With latency.taken_branch = 2 the operand decides and the branch costs nothing.
  auto dependent = [](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p;
    for (int k = 0; k < 50; ++k) {
      Instruction work = op(traces::Unit::Fp32, 0, {0});
      work.pc = 0x100;
      Instruction branch = op(traces::Unit::Control, traces::kNoReg);
      branch.pc = 0x110;
      p.push_back(work);
      p.push_back(branch);
    }
    Instruction exit = exit_op();
    exit.pc = 0x120;
    p.push_back(exit);
    return p;
  };
  const Outcome ten = run_on("hopper-h100", 1, 32, dependent);
  const Outcome two = run_on("hopper-h100", 1, 32, dependent, {"latency.taken_branch=2"});
  const Outcome none = run_on("hopper-h100", 1, 32, dependent, {"latency.taken_branch=0"});
  CHECK(two.totals.cycles == none.totals.cycles);
  CHECK(ten.totals.cycles == none.totals.cycles + 49 * (11 - 4));
}
