// Dependency-graph analysis: critical path and ILP of a block, and the bound it places on any
// simulated schedule.
#include <catch2/catch.hpp>

#include "analysis/dependency_graph.hpp"
#include "models/core/gpu.hpp"
#include "tests/models/mock_workload.hpp"

using namespace warpsim;
using namespace warpsim::test;
using traces::Unit;

namespace {
models::Arch one_sm(const char* preset) {
  return models::load_arch(preset, {"gpu.sms=1", "dispatch.kernel_start_ns=0", "dispatch.block_start_latency_cycles=0",
                                    "dispatch.warp_launch_interval_cycles=0"});
}
std::uint64_t simulate_cycles(const models::Arch& arch, ProgramKernel::Program program, std::uint32_t threads) {
  FixedLatencyMemory memory(arch.l1.hit_latency);  // as fast as the analysis assumes loads can be
  sim::StatsRegistry stats;
  models::Gpu gpu(arch, memory, stats);
  gpu.run(std::make_unique<ProgramKernel>(1, threads, std::move(program)));
  return gpu.totals().cycles;
}
}  // namespace

TEST_CASE("a dependent chain: critical path is the sum of latencies, ILP 1", "[analysis][graph]") {
  // Kepler FP32 latency 10: FFMA at 0, 10, 20, EXIT may pair with nothing but has no inputs:
  // on a dual-issue preset it could go at 20, so the path ends at 20 + 1 = 21 cycles.
  models::Arch kepler = one_sm("kepler-k20x");
  ProgramKernel kernel(1, 32, [](std::uint64_t, std::uint32_t) {
    return std::vector<Instruction>{op(Unit::Fp32, 1, {0}), op(Unit::Fp32, 2, {1}), op(Unit::Fp32, 3, {2}), exit_op()};
  });
  auto a = analysis::analyze_block(kepler, kernel, 0);
  CHECK(a.instructions == 4);
  CHECK(a.critical_path_cycles == 21);
  CHECK(a.critical_path_length == 3);
  CHECK(a.ilp == Approx(4.0 / 3.0));
}

TEST_CASE("independent instructions: ILP equals the instruction count", "[analysis][graph]") {
  models::Arch hopper = one_sm("hopper-h100");
  ProgramKernel kernel(1, 32, [](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p;
    for (int i = 0; i < 8; ++i) p.push_back(op(Unit::Fp32, traces::Reg(i)));
    return p;
  });
  auto a = analysis::analyze_block(hopper, kernel, 0);
  CHECK(a.critical_path_length == 1);
  CHECK(a.ilp == Approx(8.0));
  CHECK(a.critical_path_cycles == 8);  // single dispatch: one per cycle, in order
}

TEST_CASE("barrier edges make every warp wait for the slowest one", "[analysis][graph]") {
  // Warp 0: 20-link chain (issues at 0, 10, ..., 190 on Kepler) then a barrier, which reads no
  // register and may pair with the last link at 190; warp 1: barrier, then a 10-link chain that
  // starts the cycle after the barrier completes (191) and issues its last link at 281: 282.
  models::Arch kepler = one_sm("kepler-k20x");
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t warp) {
    std::vector<Instruction> p(warp == 0 ? 20 : 0, op(Unit::Fp32, 0, {0}));
    p.push_back(barrier_op());
    for (int i = 0; i < (warp == 1 ? 10 : 0); ++i) p.push_back(op(Unit::Fp32, 1, {1}));
    return p;
  };
  ProgramKernel kernel(1, 64, program);
  auto a = analysis::analyze_block(kepler, kernel, 0);
  CHECK(a.barriers == 1);
  CHECK(a.critical_path_cycles == 190 + 1 + 90 + 1);
  CHECK(simulate_cycles(kepler, program, 64) >= a.critical_path_cycles);
}

TEST_CASE("no simulated schedule beats the critical path", "[analysis][graph]") {
  // Mixed programs on every preset: loads feeding arithmetic, independent work, SFU.
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t warp) {
    std::vector<Instruction> p;
    for (int i = 0; i < 30; ++i) {
      p.push_back(load(traces::Reg(10 + i % 5), traces::kNoReg));
      p.push_back(op(Unit::Fp32, traces::Reg(20 + i % 5), {traces::Reg(10 + i % 5)}));
      p.push_back(op(i % 3 ? Unit::Int : Unit::Sfu, traces::Reg(30 + (i + warp) % 7), {traces::Reg(20 + i % 5)}));
    }
    p.push_back(exit_op());
    return p;
  };
  for (const char* preset : {"fermi-m2070", "kepler-k20x", "hopper-h100"}) {
    INFO(preset);
    models::Arch arch = one_sm(preset);
    for (std::uint32_t threads : {32u, 96u, 256u}) {
      ProgramKernel kernel(1, threads, program);
      auto a = analysis::analyze_block(arch, kernel, 0);
      CHECK(simulate_cycles(arch, program, threads) >= a.critical_path_cycles);
    }
  }
}
