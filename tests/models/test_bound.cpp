// The bound of a run (models/bound/): utilisation against the preset's peaks, exact for made-up
// counts; each verdict from the inputs that decide it; and through simulate(), the invariants
// that tie the new counters to the old ones and the seeds' cases (SPEC S5).
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "models/arch.hpp"
#include "models/bound/bound.hpp"
#include "models/bound/limiter.hpp"
#include "models/bound/utilization.hpp"
#include "models/simulate.hpp"

using namespace warpsim::models;

namespace {

double metric(const RunResult& r, const std::string& name) {
  for (const auto& [n, v] : r.metrics)
    if (n == name) return v;
  FAIL("no metric " << name);
  return 0;
}

std::string text(const RunResult& r, const std::string& name) {
  for (const auto& [n, v] : r.text_metrics)
    if (n == name) return v;
  FAIL("no text metric " << name);
  return "";
}

RunResult run(const std::string& arch, const std::string& kernel, std::vector<std::string> params,
              std::vector<std::string> overrides = {}) {
  RunRequest q;
  q.arch = arch;
  q.kernel = kernel;
  q.kernel_params = std::move(params);
  q.arch_overrides = std::move(overrides);
  return simulate(q);
}

// Inputs of a kernel that is busy nowhere: 8 waves of full blocks, warps issuing, no stalls.
BoundInputs quiet() {
  BoundInputs in;
  in.cycles = 100000;
  in.start_cycles = 4000;
  in.cycles_per_us = 1980;
  in.idle = 0.05;
  in.achieved_occupancy = 0.9;
  in.issued = 0.3;
  in.memory_wait = 0.5;
  in.theoretical.blocks_per_sm = 4;
  in.theoretical.warps_per_sm = 64;
  in.theoretical.max_warps_per_sm = 64;
  in.blocks = 132 * 4 * 8;
  in.sms = 132;
  in.dram_bytes_per_second = 3.352e12;
  in.l2_slices = 80;
  return in;
}

void set(BoundInputs& in, Resource r, double share) { in.use.of[static_cast<int>(r)] = share; }

}  // namespace

TEST_CASE("utilisation: each resource's count over its peak and the elapsed cycles", "[models][bound]") {
  const Arch a = load_arch("hopper-h100");
  GpuTotals t;
  t.cycles = a.gpu.core_clock_khz / 1000;  // one microsecond: 1980 cycles
  const std::uint64_t sm_cycles = std::uint64_t(a.gpu.sms) * t.cycles;
  t.issue_events = sm_cycles * a.sm.schedulers / 4;              // a quarter of the scheduler-cycles
  t.pipe_slots[int(warpsim::traces::Unit::Fp32)] = sm_cycles * 2;  // 128 lanes: 4 a cycle per SM
  t.pipe_slots[int(warpsim::traces::Unit::Sfu)] = sm_cycles / 2;   // 16 lanes in 4 pools: 4 x 4 / 32
  MemoryCounters m;
  m.l1_wavefronts = sm_cycles / 8;
  m.l1_sector_lookups = sm_cycles;      // 4 sectors a cycle
  m.shared_wavefronts = sm_cycles * 3 / 4;
  // Every slice's peak lookups for a microsecond of the L2's own clock (l2.clock_khz).
  m.l2_sector_lookups = std::uint64_t(a.l2.slices) * a.l2.lookups_per_cycle * a.l2.clock_khz / 1000;
  m.dram_read_bytes = static_cast<std::uint64_t>(a.dram.bytes_per_second() * 1e-6 / 2);  // 1,676,160 bytes
  const Utilization u = utilization(a, t, m);
  CHECK(u[Resource::Issue] == 0.25);
  CHECK(u[Resource::PipeFp32] == 0.5);
  CHECK(u[Resource::PipeSfu] == 1.0);
  CHECK(u[Resource::PipeInt] == 0.0);
  CHECK(u[Resource::L1Wavefronts] == 0.125);
  CHECK(u[Resource::L1Sectors] == 0.25);
  CHECK(u[Resource::Shared] == 0.75);
  CHECK(u[Resource::L2] == Approx(1.0).epsilon(1e-12));
  CHECK(u[Resource::Dram] == Approx(0.5).epsilon(1e-12));
  CHECK(resource_name(Resource::L1Wavefronts) == "l1_wavefronts");
  CHECK(pipe_of(warpsim::traces::Unit::Fp64) == Resource::PipeFp64);
}

TEST_CASE("verdict: the busiest resource at 60% or more names the limiter", "[models][bound]") {
  struct Case {
    Resource resource;
    const char* limiter;
    const char* evidence;
  };
  const Case cases[] = {{Resource::Dram, "dram-bandwidth", "DRAM at 70%"},
                        {Resource::L2, "l2-bandwidth", "L2 slices at 70%"},
                        {Resource::L1Wavefronts, "l1-lsu", "l1_wavefronts at 70%"},
                        {Resource::PipeLdSt, "l1-lsu", "ldst at 70%"},
                        {Resource::PipeFp64, "issue", "fp64 pipe at 70%"},
                        {Resource::Issue, "issue", "dispatch: issue slots at 70%"}};
  for (const auto& c : cases) {
    INFO(c.limiter << " " << resource_name(c.resource));
    BoundInputs in = quiet();
    set(in, Resource::Dram, 0.59);  // under the line: never the limiter unless it is the busiest above it
    set(in, c.resource, 0.70);
    const Verdict v = judge(in);
    CHECK(limiter_name(v.limiter) == c.limiter);
    CHECK_THAT(v.evidence, Catch::StartsWith(c.evidence));
  }
  BoundInputs below = quiet();
  set(below, Resource::Dram, 0.599);
  CHECK(judge(below).limiter == Limiter::Latency);
}

TEST_CASE("verdict: shared memory's wavefronts outnumbering L1's make the LSU shared-banks", "[models][bound]") {
  BoundInputs in = quiet();
  set(in, Resource::PipeLdSt, 0.8);
  set(in, Resource::Shared, 0.7);
  set(in, Resource::L1Wavefronts, 0.1);
  in.shared_conflict_share = 0.5;
  Verdict v = judge(in);
  CHECK(v.limiter == Limiter::SharedBanks);
  CHECK_THAT(v.sentence, Catch::Contains("50% of those wavefronts are bank-conflict replays"));
  set(in, Resource::L1Wavefronts, 0.75);  // now the global accesses' passes are the larger part
  CHECK(judge(in).limiter == Limiter::L1Lsu);
}

TEST_CASE("verdict: launch, tail, barrier and latency when nothing is busy", "[models][bound]") {
  BoundInputs launch = quiet();
  launch.cycles = 8000;
  launch.start_cycles = 4000;  // the start is half the kernel
  CHECK(judge(launch).limiter == Limiter::Launch);
  launch.start_cycles = 3999;
  CHECK(judge(launch).limiter != Limiter::Launch);

  BoundInputs few = quiet();
  few.blocks = 66;  // half of one block per SM
  few.idle = (0.04 + 0.96 * 0.5);  // the start, then half the schedulers without warps
  Verdict v = judge(few);
  CHECK(v.limiter == Limiter::Tail);
  CHECK_THAT(v.evidence, Catch::StartsWith("too few blocks: 66 blocks fill 0.12 of one wave"));
  BoundInputs partial = few;
  partial.blocks = 132 * 4 + 50;  // a wave and a tenth
  CHECK_THAT(judge(partial).evidence, Catch::StartsWith("last partial wave: 1.09 waves"));

  BoundInputs barrier = quiet();
  barrier.barrier = 0.3;
  CHECK(judge(barrier).limiter == Limiter::Barrier);

  BoundInputs warps = quiet();
  warps.achieved_occupancy = 0.25;
  warps.theoretical.warps_per_sm = 16;
  warps.theoretical.limit = OccupancyLimit::Blocks;
  v = judge(warps);
  CHECK(v.limiter == Limiter::Latency);
  CHECK(v.evidence == "too few warps: 16.0 of 64 (blocks limit: 16)");
  CHECK(judge(quiet()).evidence == "too little ILP: 57.6 warps, issuing 30%");

  BoundInputs overlapped = quiet();
  overlapped.idle = overlapped.barrier = overlapped.achieved_occupancy = std::numeric_limits<double>::quiet_NaN();
  v = judge(overlapped);
  CHECK(v.limiter == Limiter::Latency);
  CHECK(v.evidence == "overlapped: no stall breakdown");
}

TEST_CASE("the new counters agree with the old: pipe slots, LSU and shared wavefronts", "[models][bound]") {
  // Every issue slot is an instruction or a replay (S3.1).
  for (const char* arch : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    INFO(arch);
    const RunResult w = run(arch, "writeOffset", {"n=65536", "offset=1"});
    const Arch a = load_arch(arch);
    double slots = 0;
    for (int u = 0; u < warpsim::traces::kUnitCount; ++u) {
      const std::uint32_t groups = a.sm.units_per_scheduler ? a.sm.schedulers : 1;
      const double rate = double(groups) * std::max(1u, a.units.lanes[u] / groups) / 32.0;
      const std::string name = "utilization_" + std::string(resource_name(pipe_of(warpsim::traces::Unit(u))));
      slots += metric(w, name) * rate * double(a.gpu.sms) * double(w.cycles);
    }
    CHECK(slots == Approx(metric(w, "warp_instructions") + metric(w, "replays")).epsilon(1e-9));
  }
  // writeOffset has no local, shared or atomic accesses: its LSU passes are its global requests
  // and their replays.
  const RunResult w = run("hopper-h100", "writeOffset", {"n=65536", "offset=1"});
  const double passes = metric(w, "utilization_l1_wavefronts") * 132 * double(w.cycles);
  CHECK(passes == Approx(metric(w, "gld_requests") + metric(w, "gst_requests") + metric(w, "replays")).epsilon(1e-9));
  CHECK(metric(w, "utilization_shared") == 0);
}

TEST_CASE("S5 on Fermi: offset 11 with L1 off moves sectors 80% useful; 128-thread blocks hold 32 warps",
          "[models][bound]") {
  // seeds/004: readOffset compiled with -dlcm=cg (loads bypass L1, as validate's fermi-s5 table
  // runs it): 32-byte segments, five for four's worth of data (S3.3).
  const RunResult off = run("fermi-m2070", "readOffset", {"n=1M", "offset=11"}, {"l1.caches_global=false"});
  CHECK(metric(off, "gld_efficiency") == Approx(80).epsilon(1e-4));
  CHECK_THAT(off.verdict, Catch::Contains("loads use 80% of the bytes their sectors move"));
  // S5: Fermi allows 8 blocks and 48 warps per SM, so blocks of 128 threads reach only 32 warps.
  const RunResult unroll = run("fermi-m2070", "readOffsetUnroll", {"n=256K", "unroll=4", "block=128"});
  CHECK(metric(unroll, "theoretical_occupancy") == Approx(32.0 / 48.0));
  CHECK(text(unroll, "occupancy_limit") == "blocks");
  CHECK(metric(unroll, "waves") == Approx(double(256 * 1024 / 4 / 128) / (14 * 8)));
}
