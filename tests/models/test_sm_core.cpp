// The SM timing model on tiny scenarios with exact cycle counts (SPEC S1, S2). Each test runs on
// a one-SM GPU with instant block start, so the numbers follow from the rules alone; the
// reasoning is written next to each expectation.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "models/simulate.hpp"
#include "tests/models/mock_workload.hpp"
#include "tests/models/one_sm_run.hpp"

using namespace warpsim;
using namespace warpsim::test;
using traces::Unit;

namespace {

// n independent instructions of one unit class: each writes its own register, reads none.
ProgramKernel::Program independent(Unit unit, int n) {
  return [=](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p;
    for (int i = 0; i < n; ++i) p.push_back(unit == Unit::LdSt ? load(traces::Reg(i % 200), traces::kNoReg)
                                                               : op(unit, traces::Reg(i % 200)));
    p.push_back(exit_op());
    return p;
  };
}

// A chain of n instructions each reading the previous one's result (R0 <- R0).
ProgramKernel::Program dependent_chain(int n) {
  return [=](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p(n, op(Unit::Fp32, 0, {0}));
    p.push_back(exit_op());
    return p;
  };
}

}  // namespace

TEST_CASE("one warp, dependent FP32 chain: each link waits the full latency", "[models][sm]") {
  // Kepler FP32 latency 10 (S2.7, S2.9). Issues at cycles 0, 10, 20; EXIT has no inputs and goes
  // the cycle after (it never pairs, S2.4); the warp leaves at 21 and the block retires on the
  // SM's next tick, 22.
  Outcome o = run_on("kepler-k20x", 1, 32, dependent_chain(3));
  CHECK(o.totals.warp_instructions == 4);
  CHECK(o.totals.cycles == 22);
}

TEST_CASE("kepler: independent FP32 with enough warps issues 6 per cycle per SM", "[models][sm]") {
  // 64 warps x 600 independent FFMAs. 4 schedulers x 2 dispatch could issue 8, the 192 CUDA
  // cores cap it at 6 (S2.5): 38,400 instructions need 6,400 cycles, plus the EXITs and tail.
  Outcome o = run_on("kepler-k20x", 2, 1024, independent(Unit::Fp32, 600));
  CHECK(o.totals.warp_instructions == 64 * 601);
  CHECK(o.ipc() == Approx(6.0).epsilon(0.01));
  CHECK(o.dual_fraction() > 0.4);  // 6 per cycle from 4 schedulers needs pairs
}

TEST_CASE("kepler: LD/ST-only issues 1 per cycle, SFU-only 1, DP-only 2 and never pairs", "[models][sm]") {
  // S2.5: 32 LD/ST units, 32 SFUs, 64 DP units per SMX; S2.4: no pairing with a DP instruction.
  Outcome ldst = run_on("kepler-k20x", 2, 1024, independent(Unit::LdSt, 100));
  CHECK(ldst.ipc() == Approx(1.0).epsilon(0.05));
  Outcome sfu = run_on("kepler-k20x", 2, 1024, independent(Unit::Sfu, 100));
  CHECK(sfu.ipc() == Approx(1.0).epsilon(0.05));
  Outcome dp = run_on("kepler-k20x", 2, 1024, independent(Unit::Fp64, 200));
  CHECK(dp.ipc() == Approx(2.0).epsilon(0.03));
  CHECK(dp.totals.dual_issues == 0);
  // With the S2.4 rule switched off, DP pairs too: 2 per cycle still caps it, but pairs appear.
  Outcome dp_free = run_on("kepler-k20x", 2, 1024, independent(Unit::Fp64, 200), {"sm.fp64_blocks_dual_issue=false"});
  CHECK(dp_free.totals.dual_issues > 0);
}

TEST_CASE("kepler: one warp alternating FP32 and independent loads dual-issues every pair", "[models][sm]") {
  // FFMA R(i) then LD R(i+1): independent, different units, so each pair goes in one cycle
  // (S2.3): 100 pairs at cycles 0..99, every issue a dual issue; EXIT alone at 100. The kernel
  // ends when the last load (issued at 99, 100-cycle stand-in memory) lands: cycle 199.
  ProgramKernel::Program alternate = [](std::uint64_t, std::uint32_t) {
    std::vector<Instruction> p;
    for (int i = 0; i < 100; ++i) {
      p.push_back(op(Unit::Fp32, traces::Reg(2 * i % 200)));
      p.push_back(load(traces::Reg((2 * i + 1) % 200), traces::kNoReg));
    }
    p.push_back(exit_op());
    return p;
  };
  Outcome o = run_on("kepler-k20x", 1, 32, alternate);
  CHECK(o.totals.dual_issues == 100);
  CHECK(o.totals.issue_events == 101);
  CHECK(o.totals.cycles == 199);
}

TEST_CASE("dependent chains: IPC grows with warps and saturates near 4 x 10 = 40 warps (S2.9)", "[models][sm]") {
  // Each warp issues once per 10 cycles, so W warps give W/10 per cycle until the 4 schedulers
  // are busy every cycle: IPC = min(W/10, 4). The expected curve, with 1% tolerance for the
  // start and end of the run (1000 links per warp).
  struct Point {
    std::uint32_t warps, blocks, threads;
    double ipc;
  };
  const Point curve[] = {{4, 1, 128, 0.4},   {8, 1, 256, 0.8},    {16, 1, 512, 1.6},  {32, 1, 1024, 3.2},
                         {40, 2, 640, 4.0},  {48, 2, 768, 4.0},   {64, 2, 1024, 4.0}};
  double previous = 0;
  for (const auto& p : curve) {
    INFO(p.warps << " warps");
    Outcome o = run_on("kepler-k20x", p.blocks, p.threads, dependent_chain(1000));
    CHECK(o.ipc() == Approx(p.ipc).epsilon(0.02));
    CHECK(o.ipc() >= previous - 1e-9);
    previous = o.ipc();
    // Below saturation each scheduler waits on ALU results for the cycles it cannot fill:
    // a fraction 1 - W/40 of them.
    if (p.warps < 40)
      CHECK(o.state_fraction(models::SchedulerState::AluDependency) == Approx(1.0 - p.warps / 40.0).margin(0.02));
  }
}

TEST_CASE("barriers hold every warp of the block until the last arrives", "[models][sm]") {
  // Warp 0 does 50 dependent FFMAs (500 cycles) before the barrier, warp 1 none; warp 1 must
  // wait, so the kernel takes about 500 cycles and records barrier stalls.
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t warp) {
    std::vector<Instruction> p(warp == 0 ? 50 : 0, op(Unit::Fp32, 0, {0}));
    p.push_back(barrier_op());
    p.push_back(op(Unit::Fp32, 1, {0}));
    p.push_back(exit_op());
    return p;
  };
  Outcome o = run_on("kepler-k20x", 1, 64, program);
  CHECK(o.totals.cycles >= 500);
  CHECK(o.totals.cycles < 520);
  CHECK(o.totals.state_cycles[int(models::SchedulerState::Barrier)] > 400);
}

TEST_CASE("a barrier does not wait for warps that have exited", "[models][sm]") {
  // Warp 1 exits at once; warp 0 reaches a barrier. S2.8 counts only live warps, so warp 0
  // passes: barrier, one FFMA, EXIT.
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t warp) {
    std::vector<Instruction> p;
    if (warp == 0) p = {barrier_op(), op(Unit::Fp32, 0)};
    p.push_back(exit_op());
    return p;
  };
  Outcome o = run_on("kepler-k20x", 1, 64, program);
  CHECK(o.totals.warp_instructions == 4);
  CHECK(o.totals.cycles < 10);
}

TEST_CASE("memory latency: a load's consumer waits for the memory system's answer", "[models][sm]") {
  // LD R1 at cycle 0 (fixed 100-cycle stand-in), FFMA R2 <- R1 at 100, EXIT at 101, retire 102.
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t) {
    return std::vector<Instruction>{load(1, traces::kNoReg), op(Unit::Fp32, 2, {1}), exit_op()};
  };
  Outcome o = run_on("kepler-k20x", 1, 32, program);
  CHECK(o.totals.cycles == 102);
  CHECK(o.totals.state_cycles[int(models::SchedulerState::MemoryDependency)] >= 99);
}

TEST_CASE("a kernel's start time delays its first block and counts in the kernel's time", "[models][sm]") {
  // The 3-link chain of the first test takes 22 cycles from its block's dispatch. Kepler runs at
  // 732 MHz: a 1,000 ns start time is 732 cycles before the block, 754 in all.
  Outcome o = run_on("kepler-k20x", 1, 32, dependent_chain(3), {"dispatch.kernel_start_ns=1000"});
  CHECK(o.totals.cycles == 732 + 22);
}

TEST_CASE("a finished block keeps its resources until its stores are acknowledged", "[models][sm]") {
  // Fermi fits one 1024-thread block per SM (1,536 threads). Each warp stores (the fixed
  // 100-cycle stand-in acknowledges it at issue + 100) and exits. The 32 warps share 2 schedulers
  // and 16 LD/ST lanes: a store occupies its LD/ST issue for 2 cycles, so the stores issue at
  // cycles 0, 2, ..., 62 and the last warp exits at 63. The block's resources come back at 162,
  // when the last store is acknowledged, and the second block runs 162-325 the same way: 325
  // cycles. Freeing them at exit (63) would start the second block at 64 and end at 64 + 162.
  // The exited warps are not active meanwhile: achieved occupancy counts each warp only up to its
  // EXIT, at most 64 cycles.
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t) {
    return std::vector<Instruction>{store(1), exit_op()};
  };
  Outcome one = run_on("fermi-m2070", 1, 1024, program);
  Outcome two = run_on("fermi-m2070", 2, 1024, program);
  CHECK(one.totals.cycles == 162);
  CHECK(two.totals.cycles == 325);
  CHECK(two.totals.warp_cycles <= 2 * 32 * 64);
}

TEST_CASE("occupancy limits how many blocks run at once", "[models][sm]") {
  // Fermi holds 8 blocks per SM (S1.1, seeds/004). One-warp blocks running a 100-link FP32 chain
  // are latency-bound (8 warps issue once per 18 cycles, below Fermi's 1 FP32 warp-instruction
  // per cycle), so a round of resident blocks takes 100 x 18 = 1800 cycles: 8 blocks one round,
  // 9 and 16 blocks two.
  Outcome eight = run_on("fermi-m2070", 8, 32, dependent_chain(100));
  Outcome nine = run_on("fermi-m2070", 9, 32, dependent_chain(100));
  Outcome sixteen = run_on("fermi-m2070", 16, 32, dependent_chain(100));
  CHECK(eight.totals.cycles == Approx(1800).margin(20));
  CHECK(nine.totals.cycles == Approx(3600).margin(40));
  CHECK(sixteen.totals.cycles == Approx(3600).margin(40));
  // Eight warps resident whenever the SM is busy.
  CHECK(double(sixteen.totals.warp_cycles) / double(sixteen.totals.active_cycles) == Approx(8.0).epsilon(0.02));
}

TEST_CASE("achieved occupancy counts a warp from its own start, not from its block's dispatch", "[models][sm]") {
  // A 1024-thread block's 32 warps start 15 cycles apart, each runs the same latency-bound
  // 100-link chain (8 warps a scheduler never compete for issue), so each lives as long as a lone
  // warp does and the last exits 31 x 15 cycles after the first. Each counts from its own start
  // until that last exit (the next test): 32 lone lifetimes plus 15 x (31 + 30 + ... + 0) = 7,440
  // warp-cycles. Counting them from the block's dispatch would add as much again.
  const std::vector<std::string> staggered = {"dispatch.warp_launch_interval_cycles=15"};
  Outcome lone = run_on("kepler-k20x", 1, 32, dependent_chain(100), staggered);
  Outcome block = run_on("kepler-k20x", 1, 1024, dependent_chain(100), staggered);
  CHECK(double(lone.totals.warp_cycles) == Approx(double(lone.totals.cycles)).margin(1));  // retiring takes a cycle
  CHECK(block.totals.cycles == Approx(lone.totals.cycles + 31 * 15).margin(10));
  // Exactly: the last exit lies as far from the first start as the run's end less the cycles
  // after a lone warp's exit (retiring).
  const std::uint64_t first_to_last = block.totals.cycles - (lone.totals.cycles - lone.totals.warp_cycles);
  CHECK(block.totals.warp_cycles == 32 * first_to_last - 7440);
}

TEST_CASE("achieved occupancy counts a warp until its block's last warp exits, as ncu does", "[models][sm]") {
  // sm__warps_active counts a block's early finishers until the block ends (SmCounters::warp_cycles
  // cites the H100 records). One block of 32 warps, started 15 cycles apart: warp 0 runs the
  // 100-link chain, the 31 others exit at once. Each counts from its own start until warp 0 exits,
  // 32 lone lifetimes less the stagger 15 x (0 + 1 + ... + 31) = 7,440 warp-cycles; counted to
  // their own exits they would add up to one lifetime and a few cycles.
  const std::vector<std::string> staggered = {"dispatch.warp_launch_interval_cycles=15"};
  Outcome lone = run_on("kepler-k20x", 1, 32, dependent_chain(100), staggered);
  const auto first_works = [](std::uint64_t block, std::uint32_t warp) {
    return warp == 0 ? dependent_chain(100)(block, warp) : std::vector<Instruction>{exit_op()};
  };
  Outcome block = run_on("kepler-k20x", 1, 1024, first_works, staggered);
  CHECK(block.totals.cycles == Approx(lone.totals.cycles).margin(2));
  // Exactly, with warp 0's exit placed as in the previous test (it may run a cycle longer than
  // alone, behind the others' exits).
  const std::uint64_t first_to_last = block.totals.cycles - (lone.totals.cycles - lone.totals.warp_cycles);
  CHECK(block.totals.warp_cycles == 32 * first_to_last - 7440);
}

TEST_CASE("concurrent kernels: a block that did not fit is dispatched when another kernel's block retires",
          "[models][sm]") {
  // Two SMs of 2048 threads each; 1024-thread blocks, two to an SM, each warp a 100-link FP32
  // chain. Kernel A (stream 1) has 6 blocks: the first 4 fill both SMs, the last 2 wait. Kernel B
  // (stream 2), launched right after, has 2 blocks that fit nowhere at first. When A's first
  // round retires, A's last 2 blocks (the older launch first) and B's 2 take the 4 freed places:
  // two full rounds, as 8 blocks of one kernel take. The dispatcher remembers that B did not fit
  // each SM; if a retirement of A's block did not make that SM a candidate for B again, B would
  // run in a third round (or never).
  auto cycles_of = [](std::uint32_t a_blocks, std::uint32_t b_blocks) {
    models::Arch arch = models::load_arch("kepler-k20x", {"gpu.sms=2", "dispatch.kernel_start_ns=0",
                                                          "dispatch.block_start_latency_cycles=0",
                                                          "dispatch.warp_launch_interval_cycles=0",
                                                          "dispatch.block_interval_cycles=1"});
    FixedLatencyMemory memory(100);
    sim::StatsRegistry stats;
    models::Gpu gpu(arch, memory, stats);
    traces::Workload w;
    for (auto [stream, blocks] : {std::pair<std::uint64_t, std::uint32_t>{1, a_blocks}, {2, b_blocks}}) {
      if (blocks == 0) continue;
      traces::WorkloadStep step{traces::WorkloadStep::Kind::Launch, {}, {}};
      step.launch.open = [stream, blocks] {
        auto k = std::make_unique<ProgramKernel>(blocks, 1024, dependent_chain(100));
        k->on_stream(stream);
        return std::unique_ptr<traces::KernelSource>(std::move(k));
      };
      w.steps.push_back(step);
    }
    gpu.run(w);
    const models::GpuTotals t = gpu.totals();
    CHECK(t.warp_instructions == std::uint64_t{a_blocks + b_blocks} * 32 * 101);
    return t.cycles;
  };
  const sim::Cycle shared = cycles_of(6, 2), one_kernel = cycles_of(8, 0), three_rounds = cycles_of(10, 0);
  CHECK(shared == one_kernel);
  CHECK(three_rounds > one_kernel + 500);  // a third round would show: the check can tell
}

TEST_CASE("fermi: one FP32 warp-instruction per cycle caps a throughput-bound kernel", "[models][sm]") {
  // 32 CUDA cores per SM (S2.5 for Fermi): 8 blocks x 4 warps x 101 instructions need 3232 cycles.
  Outcome o = run_on("fermi-m2070", 8, 128, dependent_chain(100));
  CHECK(o.ipc() == Approx(1.0).epsilon(0.01));
  CHECK(o.totals.state_cycles[int(models::SchedulerState::UnitBusy)] > 0);
}

TEST_CASE("an idle GPU costs no events: a long memory wait is one sleep", "[models][sm][engine]") {
  ProgramKernel::Program program = [](std::uint64_t, std::uint32_t) {
    return std::vector<Instruction>{load(1, traces::kNoReg), op(Unit::Fp32, 2, {1}), exit_op()};
  };
  models::Arch arch = models::load_arch("kepler-k20x", {"gpu.sms=1", "dispatch.kernel_start_ns=0",
                                                        "dispatch.block_start_latency_cycles=0",
                                                        "dispatch.warp_launch_interval_cycles=0"});
  FixedLatencyMemory memory(1'000'000);
  sim::StatsRegistry stats;
  models::Gpu gpu(arch, memory, stats);
  gpu.run(std::make_unique<ProgramKernel>(1, 32, program));
  CHECK(gpu.totals().cycles == 1'000'002);
  CHECK(gpu.engine().events_processed() < 20);
}

TEST_CASE("greedy-then-oldest runs one warp ahead; fair rotation interleaves (S2.6)", "[models][sm]") {
  // Two warps on one single-dispatch scheduler, each: 100 independent FFMAs, then a load.
  // lrr alternates every cycle, so both loads issue at about cycle 200; gto keeps warp 0 going,
  // so its load issues at 100 and warp 1's about 100 cycles later.
  auto load_cycles = [](const char* policy) {
    models::Arch arch = models::load_arch(
        "kepler-k20x", {"gpu.sms=1", "dispatch.kernel_start_ns=0", "dispatch.block_start_latency_cycles=0",
                        "dispatch.warp_launch_interval_cycles=0", "sm.schedulers=1",
                        "sm.max_warps_per_scheduler=64", "sm.dispatch_per_scheduler=1",
                        std::string("sm.scheduler_policy=") + policy});
    struct Recording : FixedLatencyMemory {
      Recording() : FixedLatencyMemory(100) {}
      std::vector<sim::Cycle> cycles;
      models::MemoryAccessResult access(std::uint32_t sm, std::uint32_t k, const Instruction& in,
                                        const models::memory::ByteRange& range, sim::Cycle now) override {
        cycles.push_back(now);
        return FixedLatencyMemory::access(sm, k, in, range, now);
      }
    } memory;
    sim::StatsRegistry stats;
    models::Gpu gpu(arch, memory, stats);
    gpu.run(std::make_unique<ProgramKernel>(1, 64, [](std::uint64_t, std::uint32_t) {
      std::vector<Instruction> p;
      for (int i = 0; i < 100; ++i) p.push_back(op(Unit::Fp32, traces::Reg(i)));
      p.push_back(load(150, traces::kNoReg));
      p.push_back(exit_op());
      return p;
    }));
    return memory.cycles;
  };
  auto lrr = load_cycles("lrr");
  auto gto = load_cycles("gto");
  REQUIRE(lrr.size() == 2);
  REQUIRE(gto.size() == 2);
  CHECK(lrr[0] >= 198);
  CHECK(lrr[1] - lrr[0] <= 2);
  CHECK(gto[0] == 100);
  CHECK(gto[1] >= 199);
}

TEST_CASE("an 80-thread block runs 3 warps with 16 dummy lanes: at most 83.3% lane efficiency (S1.3)", "[models][sm]") {
  // The same kernel with 96-thread blocks runs the same instructions on full warps; the only
  // difference is the 16 dummy lanes of each third warp, so the ratio is exactly 80/96.
  auto lane_efficiency = [](std::uint32_t block) {
    models::RunResult r = models::simulate(
        {"kepler-k20x", {}, "readOffset", {"n=" + std::to_string(block * 64), "block=" + std::to_string(block)}, "", 1});
    return r.metrics;
  };
  auto get = [](const std::vector<std::pair<std::string, double>>& m, const char* name) {
    for (const auto& [k, v] : m)
      if (k == name) return v;
    return -1.0;
  };
  auto m80 = lane_efficiency(80), m96 = lane_efficiency(96);
  CHECK(get(m80, "warp_instructions") == get(m96, "warp_instructions"));  // 3 warps per block either way
  CHECK(get(m80, "lane_efficiency") <= 100.0 * 80 / 96 + 1e-9);
  CHECK(get(m80, "lane_efficiency") / get(m96, "lane_efficiency") == Approx(80.0 / 96.0));
}
