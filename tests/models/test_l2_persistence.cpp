// L2 persistence (SPEC S4) on the Hopper preset: the set-aside, access-policy windows, LRU
// thrashing among persisting lines, sharing between concurrent windows, persistence across
// kernels and its reset.
#include <catch2/catch.hpp>

#include <cstdio>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/memory_system.hpp"
#include "models/memory/persistence_policy.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/errors.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

constexpr std::uint64_t kWindow = 1ull << 30, kOther = 2ull << 30, kNoise = 3ull << 30;

// An H100 whose L2 is shrunk to 1 MB so that a few MB of normal traffic flush everything that
// is not protected (the persistence rules do not depend on the size).
Arch small_l2_hopper() {
  Arch a = load_arch("hopper-h100");
  a.l2.size_bytes = 1 << 20;
  a.l2.slices = 8;
  a.l2.partitions = 1;  // every access reaches its line's home, where persistence lives
  return a;
}

struct L2Rig {
  Arch arch;
  sim::StatsRegistry stats;
  BankedDram dram;
  L2Cache l2;
  PersistencePolicy policy;
  sim::Cycle now = 0;
  explicit L2Rig(const Arch& a)
      : arch(a), dram(a.dram, a.gpu.core_clock_khz, 7), l2(a.l2, a.gpu.core_clock_khz, dram, stats), policy(a.l2, 7) {}

  // Reads every sector of [base, base + bytes) as kernel `slot`; returns how many hit.
  std::uint64_t read_range(std::uint32_t slot, std::uint64_t base, std::uint64_t bytes) {
    std::uint64_t hits = 0;
    for (std::uint64_t a = base; a < base + bytes; a += 32) {
      bool hit = false;
      l2.read(a, now++, policy.property(slot, a, a / 128), 0, hit);
      hits += hit;
      now += 1000;  // let every fill land: hits here mean "was resident"
    }
    return hits;
  }
  void pressure(std::uint64_t bytes) { read_range(99, kNoise, bytes); }  // slot 99: no window
  // Sectors of the range present in L2 (without touching them).
  std::uint64_t resident(std::uint64_t base, std::uint64_t bytes) const {
    std::uint64_t n = 0;
    for (std::uint64_t a = base; a < base + bytes; a += 32) n += l2.contains(a);
    return n;
  }
};

AccessPolicyWindow window(std::uint64_t base, std::uint64_t bytes, double hit_ratio,
                          AccessProperty hit = AccessProperty::Persisting) {
  AccessPolicyWindow w;
  w.base = base;
  w.bytes = bytes;
  w.hit_ratio = hit_ratio;
  w.hit_prop = hit;
  w.miss_prop = AccessProperty::Streaming;
  return w;
}

}  // namespace

TEST_CASE("S4.1 set-aside: none by default, the guide's min(0.75 x L2, persisting max) for a window, requests capped",
          "[memory][l2]") {
  const Arch h = load_arch("hopper-h100");
  PersistencePolicy p(h.l2, 1);
  const std::uint64_t guide = std::min<std::uint64_t>(h.l2.size_bytes * 3 / 4, h.l2.persist_max_bytes);
  CHECK(p.resolve_set_aside(traces::KernelInfo::kNoSetAside) == 0);
  CHECK(p.resolve_set_aside(traces::KernelInfo::kLargestSetAside) == guide);
  traces::KernelInfo launch;
  CHECK(p.resolve_set_aside(launch) == 0);
  launch.window.bytes = 4096;
  CHECK(p.resolve_set_aside(launch) == guide);
  launch.set_aside_bytes = 0;
  CHECK(p.resolve_set_aside(launch) == 0);
  CHECK(p.resolve_set_aside(16384) == 16384);
  CHECK(p.resolve_set_aside(std::int64_t{1} << 40) == h.l2.persist_max_bytes);
  PersistencePolicy fermi(load_arch("fermi-m2070").l2, 1);  // cc 2.0: no persistence (S4)
  CHECK(fermi.resolve_set_aside(traces::KernelInfo::kLargestSetAside) == 0);
}

TEST_CASE("S4.3 16 KB set-aside, 32 KB window: hitRatio 0.5 keeps about 16 KB, 1.0 keeps the 16 KB most recently used",
          "[memory][l2]") {
  for (double ratio : {0.5, 1.0}) {
    L2Rig rig(small_l2_hopper());
    rig.l2.set_set_aside(rig.policy.resolve_set_aside(16 << 10));
    rig.policy.set_window(0, window(kWindow, 32 << 10, ratio));
    for (int pass = 0; pass < 3; ++pass) rig.read_range(0, kWindow, 32 << 10);
    const std::uint64_t kept = rig.l2.persisting_bytes_in(kWindow, 32 << 10);
    // 4 MB of normal traffic through the 1 MB L2: only persisting lines survive it (S4.1).
    rig.pressure(4 << 20);
    const std::uint64_t resident_sectors = rig.resident(kWindow, 32 << 10);
    std::printf("S4.3 hitRatio %.1f: %llu bytes of the window persisting; %llu of 1024 sectors still resident after "
                "4 MB of normal traffic\n",
                ratio, static_cast<unsigned long long>(kept), static_cast<unsigned long long>(resident_sectors));
    if (ratio == 0.5) {
      // About half of the 256 lines are chosen (binomial, sd 8 lines = 1 KB); tolerance 2 KB.
      CHECK(kept == Approx(16 << 10).margin(2048));
    } else {
      // Thrashing: the whole window competes for 16 KB; exactly the last 16 KB read stay.
      CHECK(kept == (16u << 10));
      CHECK(rig.l2.persisting_bytes_in(kWindow + (16 << 10), 16 << 10) == (16u << 10));
    }
    CHECK(resident_sectors == kept / 32);  // the persisting sectors, and nothing else, survived
  }
}

TEST_CASE("S4.4 two concurrent 16 KB windows share a 16 KB set-aside", "[memory][l2]") {
  // Both kernels alternate passes over their windows with normal traffic in between. With
  // hitRatio 1.0 each pass of one evicts the other's lines (LRU among persisting lines): nothing
  // survives to the next pass. With 0.5 each, about 8 + 8 KB are chosen and mostly fit.
  for (double ratio : {1.0, 0.5}) {
    L2Rig rig(small_l2_hopper());
    rig.l2.set_set_aside(16 << 10);
    rig.policy.set_window(0, window(kWindow, 16 << 10, ratio));
    rig.policy.set_window(1, window(kOther, 16 << 10, ratio));
    std::uint64_t hits = 0, sectors = 0;
    for (int pass = 0; pass < 4; ++pass) {
      // What of each window is still resident when its kernel comes back to it.
      if (pass > 0) hits += rig.resident(kWindow, 16 << 10), sectors += (16 << 10) / 32;
      rig.read_range(0, kWindow, 16 << 10);
      rig.pressure(1 << 20);
      if (pass > 0) hits += rig.resident(kOther, 16 << 10), sectors += (16 << 10) / 32;
      rig.read_range(1, kOther, 16 << 10);
      rig.pressure(1 << 20);
    }
    const double rate = double(hits) / sectors;
    std::printf("S4.4 hitRatio %.1f: fraction of a window still resident when its kernel returns %.3f\n", ratio, rate);
    // Tolerances: 1.0 -> no hits at all (exact); 0.5 -> the chosen half hits, +-10 points for
    // the binomial spread of the choice and the few lines that overflow 16 KB.
    if (ratio == 1.0) CHECK(rate == 0.0);
    else CHECK(rate == Approx(0.5).margin(0.1));
  }
}

TEST_CASE("S4.1 streaming lines go first, persisting lines last, within a set", "[memory][l2]") {
  SectorCache c({4 * 128, 128, 32, 4});  // one set of four ways
  c.install(c.line_at(0), 10, LineClass::Persisting);
  c.install(c.line_at(1), 11, LineClass::Normal);
  c.install(c.line_at(2), 12, LineClass::Streaming);
  c.install(c.line_at(3), 13, LineClass::Normal);
  c.touch(c.line_at(2));  // the streaming line is the most recently used, and still goes first
  CHECK(c.victim(0).slot == 2);
  c.set_line_class(c.line_at(2), LineClass::Persisting);
  CHECK(c.victim(0).slot == 1);  // then the least recently used normal line
}

TEST_CASE("l2.clean_victims_first: a dirty streaming line stays while its set holds a clean line", "[memory][l2]") {
  // h100-measured/streaming_lines.csv: a window's streaming lines that are stored to stay far
  // longer than the same lines only read (hopper-h100.ini).
  for (const bool clean_first : {false, true}) {
    SectorCacheGeometry g{4 * 128, 128, 32, 4};
    g.clean_victims_first = clean_first;
    SectorCache c(g);  // one set of four ways
    c.install(c.line_at(0), 10, LineClass::Persisting);
    c.install(c.line_at(1), 11, LineClass::Streaming);
    c.install(c.line_at(2), 12, LineClass::Normal);
    c.install(c.line_at(3), 13, LineClass::Normal);
    c.mark_dirty(c.line_at(1), 0);
    c.mark_dirty(c.line_at(2), 2);
    // Without the rule the streaming line goes first, dirty or not; with it the clean normal line.
    CHECK(c.victim(0).slot == (clean_first ? 3u : 1u));
    c.mark_dirty(c.line_at(3), 1);
    // Every line but the persisting one dirty: streaming first again, the persisting line last.
    CHECK(c.victim(0).slot == 1);
    c.clean(c.line_at(1));
    c.clean(c.line_at(2));
    c.clean(c.line_at(3));
    c.mark_dirty(c.line_at(0), 0);
    CHECK(c.victim(0).slot == 1);  // a dirty persisting line does not move ahead of clean ones
  }
}

TEST_CASE("l2.clean_victims_first reaches the L2: a stored streaming line outlives a set of clean reads",
          "[memory][l2]") {
  CHECK(load_arch("hopper-h100").l2.clean_victims_first);
  CHECK(load_arch("hopper-h200").l2.clean_victims_first);
  CHECK_FALSE(load_arch("fermi-m2070").l2.clean_victims_first);
  for (const bool clean_first : {false, true}) {
    Arch a = small_l2_hopper();
    a.l2.slices = 1;
    a.l2.size_bytes = std::uint64_t{a.l2.ways} * a.l2.line_bytes;  // one set
    a.l2.clean_victims_first = clean_first;
    L2Rig rig(a);
    rig.l2.write(kWindow, rig.now++, L2Hint::Streaming, 0, false);  // dirty, evict-first
    bool hit = false;
    for (std::uint32_t k = 1; k <= a.l2.ways; ++k)  // fills the other ways, then one more
      rig.l2.read(kNoise + std::uint64_t{k} * a.l2.line_bytes, rig.now += 1000, L2Hint::Default, 0, hit);
    INFO("clean_victims_first " << clean_first);
    CHECK(rig.l2.contains(kWindow) == clean_first);
  }
}

TEST_CASE("S4.6 persisting lines outlive their kernel until a Normal window or a reset", "[memory][l2]") {
  sim::StatsRegistry stats;
  auto mem = make_memory_system(memory_system_specs(small_l2_hopper()), stats, 3);
  traces::Instruction load;
  load.unit = traces::Unit::LdSt;
  load.space = traces::MemSpace::Global;
  load.mem_op = traces::MemOp::Load;
  load.cache_op = traces::CacheOp::Global;  // straight to L2
  load.width = 4;
  sim::Cycle now = 0;
  auto sweep = [&](std::uint32_t slot, std::uint64_t base, std::uint64_t bytes) {
    for (std::uint64_t line = base; line < base + bytes; line += 128) {
      for (int l = 0; l < 32; ++l) load.addr[static_cast<std::size_t>(l)] = line + 4u * l;
      mem->access(0, slot, load, now);
      now += 4;
    }
  };
  traces::KernelInfo persist;
  persist.window = window(kWindow, 16 << 10, 1.0);
  persist.set_aside_bytes = 64 << 10;
  mem->begin_kernel(0, persist);
  sweep(0, kWindow, 16 << 10);
  mem->end_kernel(0);
  CHECK(mem->persisting_bytes() == (16u << 10));

  traces::KernelInfo plain;  // next kernel: no window, lots of normal traffic
  plain.set_aside_bytes = 64 << 10;
  mem->begin_kernel(0, plain);
  sweep(0, kNoise, 4 << 20);
  mem->end_kernel(0);
  CHECK(mem->persisting_bytes() == (16u << 10));  // still there (S4.6)

  traces::KernelInfo normal = persist;  // a Normal window over them resets them (S4.5)
  normal.window.hit_prop = AccessProperty::Normal;
  mem->begin_kernel(1, normal);
  sweep(1, kWindow, 8 << 10);
  mem->end_kernel(1);
  CHECK(mem->persisting_bytes() == (8u << 10));

  mem->reset_persisting();  // cudaCtxResetPersistingL2Cache()
  CHECK(mem->persisting_bytes() == 0);
}

TEST_CASE("S4.1, S4.2, S4.7: a launch's L2 policy meets the GPU's limits as the runtime applies them",
          "[memory][l2]") {
  const Arch hopper = load_arch("hopper-h100");
  traces::KernelInfo k;
  k.window = window(kWindow, hopper.l2.max_window_bytes, 0.5);
  // kernels.cu passes min(bytes, accessPolicyMaxWindowSize)
  CHECK(check_launch_policy(hopper.l2, hopper.gpu.name, k).empty());

  // cudaStreamSetAttribute refuses a window above accessPolicyMaxWindowSize; it was clamped.
  k.window.bytes = hopper.l2.max_window_bytes + 1;
  REQUIRE_THROWS_AS(check_launch_policy(hopper.l2, hopper.gpu.name, k), sim::InputError);
  REQUIRE_THROWS_WITH(check_launch_policy(hopper.l2, hopper.gpu.name, k),
                      Catch::StartsWith("-p window_bytes: ") && Catch::Contains("accessPolicyMaxWindowSize") &&
                          Catch::Contains("134217728"));
  k.origin = "trace.traceg:1-9";  // a trace's launch is named by its header lines
  REQUIRE_THROWS_WITH(check_launch_policy(hopper.l2, hopper.gpu.name, k), Catch::StartsWith("trace.traceg:1-9: "));
  k.origin.clear();

  k.window = window(kWindow, 1 << 20, 1.5);
  REQUIRE_THROWS_WITH(check_launch_policy(hopper.l2, hopper.gpu.name, k), Catch::StartsWith("-p hit_ratio: "));
  k.window.hit_ratio = 1.0;

  // cudaDeviceSetLimit clamps a set-aside above persistingL2CacheMaxSize: a warning, not an error.
  k.set_aside_bytes = static_cast<std::int64_t>(hopper.l2.persist_max_bytes) + 1;
  auto warnings = check_launch_policy(hopper.l2, hopper.gpu.name, k);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("set_aside_bytes") && Catch::Contains("32768000"));
  k.set_aside_bytes = static_cast<std::int64_t>(hopper.l2.persist_max_bytes);
  CHECK(check_launch_policy(hopper.l2, hopper.gpu.name, k).empty());

  // No persistence before compute capability 8.0: any window or set-aside is refused.
  for (const char* name : {"fermi-m2070", "kepler-k20x"}) {
    const Arch old = load_arch(name);
    traces::KernelInfo plain;
    CHECK(check_launch_policy(old.l2, old.gpu.name, plain).empty());
    plain.set_aside_bytes = 0;
    CHECK(check_launch_policy(old.l2, old.gpu.name, plain).empty());
    traces::KernelInfo windowed;
    windowed.window = window(kWindow, 4096, 1.0);
    REQUIRE_THROWS_WITH(check_launch_policy(old.l2, old.gpu.name, windowed),
                        Catch::StartsWith("-p window_bytes: ") && Catch::Contains("no L2 persistence"));
    traces::KernelInfo set_aside;
    set_aside.set_aside_bytes = 1 << 20;
    REQUIRE_THROWS_WITH(check_launch_policy(old.l2, old.gpu.name, set_aside),
                        Catch::StartsWith("-p set_aside_bytes: ") && Catch::Contains("no L2 persistence"));
  }
}
