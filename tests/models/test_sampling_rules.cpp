// Sampled simulation's decisions on made-up measurements (models/sampling/): when steady state
// is declared, what its rate and error are, when the caches count as warm, what skipped blocks
// are credited, and which earlier launches a launch repeats.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "models/arch.hpp"
#include "models/sampling/launch_repeats.hpp"
#include "models/sampling/steady_state.hpp"
#include "models/sampling/wave_measure.hpp"

using namespace warpsim;
using namespace warpsim::models::sampling;

namespace {

// Windows of 100 blocks, `instructions_per_block` each, taking the given cycles.
SteadyState windows_of(const std::vector<sim::Cycle>& cycles, SteadyRule rule = {}) {
  SteadyState s(rule);
  for (sim::Cycle c : cycles) s.add({c, 100, 100 * 50});
  return s;
}

}  // namespace

TEST_CASE("steady state needs the minimum windows, halves that agree, and a precise rate", "[sampling]") {
  SteadyRule rule;  // 8 windows, 1% drift, 3% precision, batches of 2
  REQUIRE_FALSE(windows_of(std::vector<sim::Cycle>(7, 1000), rule).steady());
  const SteadyState even = windows_of(std::vector<sim::Cycle>(8, 1000), rule);
  REQUIRE(even.steady());
  CHECK(even.rate() == 0.1);
  CHECK(even.rate_error() == 0.0);

  // The second half 3% slower: a drift, not steady however many windows.
  REQUIRE_FALSE(windows_of({1000, 1000, 1000, 1000, 1030, 1030, 1030, 1030}, rule).steady());

  // Waves that alternate +-5% average out in batches of two: steady, and a zero error.
  const SteadyState alternating = windows_of({950, 1050, 950, 1050, 950, 1050, 950, 1050}, rule);
  REQUIRE(alternating.steady());
  CHECK(alternating.rate_error() == 0.0);
  // Batches of one see the jitter: the standard error of eight rates 1/950, 1/1050, ...
  SteadyRule single = rule;
  single.batch = 1;
  const SteadyState jitter = windows_of({950, 1050, 950, 1050, 950, 1050, 950, 1050}, single);
  const double a = 100.0 / 950, b = 100.0 / 1050, mean = (a + b) / 2;
  const double sd = std::sqrt(8 * ((a - mean) * (a - mean)) / 7);
  CHECK(jitter.rate_error() == Approx(sd / std::sqrt(8.0) / mean));

  // Pairs that differ by 20%: halves agree, but the mean is not known within 3%.
  const SteadyState noisy = windows_of({800, 800, 1200, 1200, 800, 800, 1200, 1200}, rule);
  CHECK_FALSE(noisy.steady());
  CHECK(2 * noisy.rate_error() > rule.precision);
}

TEST_CASE("the IPC of the halves must agree as well as their block rate", "[sampling]") {
  SteadyState s;
  for (int i = 0; i < 8; ++i) s.add({1000, 100, std::uint64_t(i < 4 ? 5000 : 5200)});
  CHECK_FALSE(s.steady());
}

namespace {

// A reading with `retired` blocks at `cycles`, the given L2 traffic and stores (sectors).
models::LaunchTotals reading(sim::Cycle cycles, std::uint64_t l2_misses, std::uint64_t l2_hits, std::uint64_t stored_sectors,
                             std::uint64_t dram_written) {
  models::LaunchTotals t;
  t.gpu.cycles = cycles;
  t.gpu.warp_instructions = cycles * 10;
  t.memory.l2_sector_lookups = l2_misses + l2_hits;
  t.memory.l2_sector_hits = l2_hits;
  t.memory.gst_sectors = stored_sectors;
  t.memory.dram_write_bytes = dram_written;
  return t;
}

models::Arch small_l2() {
  models::Arch a = models::load_arch("kepler-k20x", {});
  a.l2.size_bytes = 32 * 1000;  // 1000 sectors
  a.l2.sector_bytes = 32;
  return a;
}

}  // namespace

TEST_CASE("the caches are warm once the L2 turned over, holds everything, or drains its dirty data", "[sampling]") {
  const models::Arch arch = small_l2();
  WarmRule rule;  // from wave 2, drain at 90% of the stored bytes, one settling wave
  SECTION("turned over") {
    WaveMeasure m(arch.l2, 10, rule, {});
    m.add(reading(0, 0, 0, 0, 0), 0, 0);
    m.add(reading(100, 400, 0, 0, 0), 10, 100);
    CHECK_FALSE(m.warm());
    m.add(reading(200, 800, 0, 0, 0), 20, 200);
    CHECK_FALSE(m.warm());
    m.add(reading(300, 1000, 0, 0, 0), 30, 300);  // 1000 sectors missed: the L2's size
    CHECK(m.warm());
  }
  SECTION("resident: a wave without an L2 miss, but never before wave 2") {
    WaveMeasure m(arch.l2, 10, rule, {});
    m.add(reading(0, 0, 0, 0, 0), 0, 0);
    m.add(reading(100, 0, 50, 0, 0), 10, 100);
    CHECK_FALSE(m.warm());  // wave 1 only hit, but it is too early to tell
    m.add(reading(200, 10, 100, 0, 0), 20, 200);
    CHECK_FALSE(m.warm());  // wave 2 missed 10 sectors
    m.add(reading(300, 10, 150, 0, 0), 30, 300);
    CHECK(m.warm());  // wave 3 only hit
  }
  SECTION("draining: a wave writes back 90% of what it stored") {
    WaveMeasure m(arch.l2, 10, rule, {});
    m.add(reading(0, 0, 0, 0, 0), 0, 0);
    m.add(reading(100, 10, 0, 100, 0), 10, 100);
    m.add(reading(200, 20, 0, 200, 89 * 32), 20, 200);
    CHECK_FALSE(m.warm());  // 89 of 100 stored sectors written back
    m.add(reading(300, 30, 0, 300, 89 * 32 + 90 * 32), 30, 300);
    CHECK(m.warm());
  }
}

TEST_CASE("the caches count as warm only once the blocks have left the launch's lockstep", "[sampling]") {
  const models::Arch arch = small_l2();
  // Ten blocks a wave of 100 cycles; the L2 turned over from wave 2 on.
  WaveMeasure m(arch.l2, 10, WarmRule{}, {});
  m.add(reading(0, 0, 0, 0, 0), 0, 0);
  sim::Cycle t = 0;
  auto wave = [&](std::uint64_t k, sim::Cycle burst) {
    // The wave's ten retirements: together within `burst` cycles at its end, or spread over it.
    for (std::uint64_t b = 0; b < 10; ++b) m.retired(10 * (k - 1) + b + 1, t + 100 - burst + b * burst / 10);
    t += 100;
    m.add(reading(t, 1000 * k, 0, 0, 0), 10 * k, t);
  };
  wave(1, 5);
  wave(2, 10);
  wave(3, 20);  // half of them within 8 cycles: in step
  CHECK_FALSE(m.warm());
  CHECK(m.describe().find("lockstep") != std::string::npos);
  wave(4, 80);  // half within 32 cycles of the 100: out of step
  CHECK(m.warm());
  CHECK(half_spread({1, 2, 3, 4, 5, 6, 7, 8}, 100, 8) == Approx(0.03));
  CHECK(half_spread({0, 10, 20, 30, 40, 50, 60, 70, 80, 90}, 100, 8) == Approx(0.4));
  CHECK(half_spread({1, 2, 3}, 100, 8) == 0.5);  // too few to tell
}

TEST_CASE("skipped blocks are credited at the steady windows' rate, with twice its standard error", "[sampling]") {
  const models::Arch arch = small_l2();
  SteadyRule steady;
  steady.batch = 1;
  steady.precision = 0.2;  // the +-10% jitter below is known within 7%
  WaveMeasure m(arch.l2, 10, {}, steady);
  // Wave k at 100 cycles per wave; the caches resident from wave 2; the first wave after that
  // settles; then eight windows alternating 90 and 110 cycles.
  std::vector<sim::Cycle> at = {0, 100, 200, 300};
  for (int i = 0; i < 8; ++i) at.push_back(at.back() + (i % 2 ? 110 : 90));
  for (std::size_t k = 0; k < at.size(); ++k) {
    models::LaunchTotals t = reading(at[k], 5, 0, 0, 0);
    t.memory.dram_read_bytes = 320 * k;
    m.add(t, 10 * k, at[k]);
  }
  REQUIRE(m.warm());
  REQUIRE(m.steady());
  const Credit c = m.credit(40);  // 4 waves at 100 cycles each: the eight windows' rate
  CHECK(c.cycles == 400);
  CHECK(c.gpu.warp_instructions == 4000);
  CHECK(c.memory.dram_read_bytes == 4 * 320);
  const double r90 = 10.0 / 90, r110 = 10.0 / 110, mean = (r90 + r110) / 2;
  const double se = std::sqrt(8 * (r90 - mean) * (r90 - mean) / 7 / 8) / mean;
  CHECK(c.error_cycles == Approx(2 * 400 * se + 100.0));  // and a wave's time for the seam
}

TEST_CASE("a launch repeats the earlier ones of its kernel only when their times agree", "[sampling]") {
  traces::KernelInfo a;
  a.name = "step";
  a.grid = {8, 32, 1};
  a.block = {32, 8, 1};
  traces::KernelInfo other = a;
  other.grid.x = 16;
  LaunchRepeats repeats;  // two references within 1%
  CHECK(repeats.references(a).empty());
  repeats.ran(0, a, 1000);
  repeats.ran(1, other, 5000);
  CHECK(repeats.references(a).empty());  // one reference only
  repeats.ran(2, a, 1030);
  CHECK(repeats.references(a).empty());  // 1000 and 1030: 1.5% from their mean
  repeats.ran(3, a, 1035);
  CHECK(repeats.references(a) == std::vector<std::uint32_t>{2, 3});
  CHECK(repeats.mean_cycles(a) == 1032.5);
  CHECK(repeats.spread_cycles(a) == 2.5);
  CHECK(repeats.references(other).empty());
  CHECK(LaunchRepeats::key(a) != LaunchRepeats::key(other));
  // Launches that turn out to run other instructions: after two, the key is given up.
  repeats.differed(a);
  CHECK(repeats.references(a) == std::vector<std::uint32_t>{2, 3});
  repeats.differed(a);
  CHECK(repeats.references(a).empty());
}
