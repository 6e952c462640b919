// The sectored load path (memory_system.cpp: one L1 lookup per line, the line's misses sent to
// L2 together) must give exactly what the per-sector path it replaced gave: for each 32-byte
// piece in address order, look the line up, hit if the piece's cache sector is valid, else
// allocate the line, read the piece from L2 and record the sector's fill. The reference below is
// that per-sector path, built from the same parts (SectorCache, L2Cache, BankedDram); random
// loads go through both on small caches, including geometries where batching is delicate:
// cache sectors wider than a piece, L2 sectors wider than a piece, L1 lines that are part of an
// L2 line or span two, and an access-policy window whose edges fall inside lines (one line's
// pieces with different properties).
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/arch.hpp"
#include "models/memory/coalescer.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/memory_system.hpp"
#include "models/memory/persistence_policy.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/rng.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

struct PerSectorReference {
  Arch arch;
  sim::StatsRegistry stats;
  BankedDram dram;
  L2Cache l2;
  SectorCache l1;
  PersistencePolicy policy;
  sim::Cycle l1_free = 0;
  std::uint64_t l1_hits = 0, l1_lookups = 0;

  PerSectorReference(const Arch& a, std::uint64_t seed, const traces::AccessPolicyWindow& window)
      : arch(a), dram(arch.dram, arch.gpu.core_clock_khz, seed), l2(arch.l2, arch.gpu.core_clock_khz, dram, stats),
        l1(SectorCacheGeometry{arch.l1.size_bytes, arch.l1.line_bytes, arch.l1.sector_bytes, arch.l1.ways}),
        policy(arch.l2, seed) {
    policy.set_window(0, window);
    traces::KernelInfo launch;
    launch.window = window;
    l2.set_set_aside(policy.resolve_set_aside(launch));
  }

  sim::Cycle load(const traces::Instruction& inst, sim::Cycle now) {
    SectorSet pieces;
    gather_sectors(inst, pieces);
    const sim::Cycle t = std::max(now, l1_free);
    l1_free = t + pieces.distinct_blocks(128);
    sim::Cycle ready = t;
    for (std::uint32_t i = 0; i < pieces.count; ++i) {
      const std::uint64_t a = pieces.address[i];
      const std::uint64_t line = a / l1.line_bytes();
      const std::uint32_t set = l1.default_set(line), sector = l1.sector_of(a);
      ++l1_lookups;
      SectorCache::Line cached = l1.find(set, line);
      if (cached.found()) {
        l1.touch(cached);
        if (l1.sector_valid(cached, sector)) {
          ++l1_hits;
          ready = std::max({ready, t + arch.l1.hit_latency, l1.sector_ready(cached, sector)});
          continue;
        }
      } else {
        cached = l1.victim(set);
        l1.install(cached, line, LineClass::Normal);
      }
      bool hit = false;
      // Each piece is its own request here, where the line path makes one per line: a piece the
      // previous one's 64-byte fetch brought in is a hit here, a miss there (compare()).
      const sim::Cycle r = l2.read(a, t, policy.property(0, a, a / arch.l2.line_bytes), arch.l2.partition_near(0), hit);
      l1.fill_sector(cached, sector, r);
      ready = std::max(ready, r);
    }
    return ready;
  }
};

// Returns the bytes the L2 holds as persisting at the end.
std::uint64_t compare(Arch arch, const traces::AccessPolicyWindow& window = {}) {
  constexpr std::uint64_t kSeed = 5;
  sim::StatsRegistry stats;
  auto memory = make_memory_system(memory_system_specs(arch), stats, kSeed);
  traces::KernelInfo kernel;
  kernel.window = window;
  memory->begin_kernel(0, kernel);
  PerSectorReference reference(arch, kSeed, window);
  sim::Rng rng(11, "line-path");
  sim::Cycle now = 0;
  for (int step = 0; step < 4000; ++step) {
    traces::Instruction inst;
    inst.unit = traces::Unit::LdSt;
    inst.space = traces::MemSpace::Global;
    inst.mem_op = traces::MemOp::Load;
    inst.width = static_cast<std::uint8_t>(4u << (rng.next() % 3));  // 4, 8 or 16 bytes a lane
    inst.active_mask = rng.next() % 4 == 0 ? static_cast<std::uint32_t>(rng.next()) | 1u : traces::kFullMask;
    // A 16 KB region, so lines come back and sectors are hit, merged and evicted; a coalesced
    // run, a strided run or scattered lanes.
    const std::uint64_t base = (std::uint64_t{1} << 32) + (rng.next() % 4096) * 4;
    const std::uint32_t pattern = static_cast<std::uint32_t>(rng.next() % 3);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      inst.addr[lane] = pattern == 0   ? base + lane * inst.width
                        : pattern == 1 ? base + lane * 36
                                       : (std::uint64_t{1} << 32) + (rng.next() % 4096) * 4;
    now += rng.next() % 40;
    INFO("step " << step);
    REQUIRE(memory->access(0, 0, inst, now).ready == reference.load(inst, now));
  }
  const MemoryCounters& c = memory->counters();
  CHECK(c.l1_sector_hits == reference.l1_hits);
  CHECK(c.l1_sector_lookups == reference.l1_lookups);
  CHECK(c.l2_sector_hits <= reference.l2.sector_hits());
  CHECK(c.l2_sector_lookups == reference.l2.sector_lookups());
  CHECK(c.dram_read_bytes == reference.dram.bytes_read());
  CHECK(reference.l1_hits > 0);  // the stream exercised hits as well as misses
  CHECK(memory->persisting_bytes() == reference.l2.persisting_bytes());
  return memory->persisting_bytes();
}

Arch small_hopper() {
  Arch a = load_arch("hopper-h100");
  a.l1.size_bytes = 8 * 4 * 128;  // 8 sets of 4 lines
  a.l2.size_bytes = 16 * 4 * 128;
  a.l2.ways = 4;
  a.l2.slices = 2;
  return a;
}

}  // namespace

TEST_CASE("sectored L1 loads line by line equal the per-sector path", "[memory]") {
  SECTION("H100 sectors: 32-byte L1 and L2 sectors") { compare(small_hopper()); }
  SECTION("64-byte L1 sectors: two pieces share a cache sector") {
    Arch a = small_hopper();
    a.l1.sector_bytes = 64;
    compare(a);
  }
  SECTION("64-byte L2 sectors: two pieces share an L2 sector") {
    Arch a = small_hopper();
    a.l2.sector_bytes = 64;
    compare(a);
  }
  SECTION("a window with edges inside lines, half its lines persisting, half streaming") {
    traces::AccessPolicyWindow window;
    window.base = (std::uint64_t{1} << 32) + 4096 + 44;  // 44 bytes into a line
    window.bytes = 8192 + 40;                            // ends 84 bytes into one
    window.hit_ratio = 0.5;
    CHECK(compare(small_hopper(), window) > 0);  // persisting lines were made
  }
  SECTION("L1 lines of 64 bytes, two to an L2 line") {  // a line's sectors are L2 sectors 0-1 or 2-3
    Arch a = small_hopper();
    a.l1.line_bytes = 64;
    a.l1.size_bytes = 8 * 4 * 64;
    compare(a);
  }
  SECTION("L1 lines of 256 bytes, L2 lines of 128") {
    Arch a = small_hopper();
    a.l1.line_bytes = 256;
    a.l1.size_bytes = 8 * 4 * 256;
    compare(a);
  }
}

TEST_CASE("pieces of one line on both sides of a window edge reach L2 with their own property", "[memory]") {
  // A window starting halfway into a 128-byte line, hitRatio 1: the line's first two 32-byte
  // pieces lie outside it (Default), the last two inside (Persisting). Sent one by one, the inside
  // pieces make the line persisting (S4.3); a load or a store that sent all four with the first
  // piece's property would leave it a normal line.
  constexpr std::uint64_t kLine = std::uint64_t{1} << 32;
  traces::AccessPolicyWindow window;
  window.base = kLine + 64;
  window.bytes = 4096;
  window.hit_ratio = 1.0;
  traces::KernelInfo kernel;
  kernel.window = window;
  for (traces::MemOp op : {traces::MemOp::Load, traces::MemOp::Store}) {
    INFO((op == traces::MemOp::Load ? "load" : "store"));
    sim::StatsRegistry stats;
    auto memory = make_memory_system(memory_system_specs(load_arch("hopper-h100")), stats, 1);
    memory->begin_kernel(0, kernel);
    traces::Instruction inst;
    inst.unit = traces::Unit::LdSt;
    inst.space = traces::MemSpace::Global;
    inst.mem_op = op;
    inst.width = 4;
    for (std::uint32_t lane = 0; lane < 32; ++lane) inst.addr[lane] = kLine + 4 * lane;
    memory->access(0, 0, inst, 0);
    CHECK(memory->persisting_bytes() == 128);
  }
}
