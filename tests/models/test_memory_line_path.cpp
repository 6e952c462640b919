// The sectored load path (memory_system.cpp: one L1 lookup per line, the line's misses sent to
// L2 together) must give exactly what the per-sector path it replaced gave: for each 32-byte
// piece in address order, look the line up, hit if the piece's cache sector is valid, else
// allocate the line, read the piece from L2 and record the sector's fill. The reference below is
// that per-sector path, built from the same parts (SectorCache, L2Cache, DramSystem); random
// loads go through both on small caches, including geometries where batching is delicate:
// cache sectors wider than a piece, and L2 sectors wider than a piece.
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/arch.hpp"
#include "models/memory/coalescer.hpp"
#include "models/memory/dram_channel.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/memory_system.hpp"
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
  DramSystem dram;
  L2Cache l2;
  SectorCache l1;
  sim::Cycle l1_free = 0;
  std::uint64_t l1_hits = 0, l1_lookups = 0;

  PerSectorReference(const Arch& a, std::uint64_t seed)
      : arch(a), dram(arch, seed), l2(arch, dram, stats),
        l1(SectorCacheGeometry{arch.l1_bytes, arch.l1_line_bytes, arch.l1_sector_bytes, arch.l1_ways}) {}

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
      std::uint32_t slot = l1.find(set, line);
      if (slot != SectorCache::kNone) {
        l1.touch(slot);
        if (l1.sector_valid(slot, sector)) {
          ++l1_hits;
          ready = std::max({ready, t + arch.l1_hit_latency, l1.sector_ready(slot, sector)});
          continue;
        }
      } else {
        slot = l1.victim(set);
        l1.install(slot, line, LineClass::Normal);
      }
      bool hit = false;
      const sim::Cycle r = l2.read(a, t, L2Hint::Default, hit);
      l1.fill_sector(slot, sector, r);
      ready = std::max(ready, r);
    }
    return ready;
  }
};

void compare(Arch arch) {
  constexpr std::uint64_t kSeed = 5;
  sim::StatsRegistry stats;
  auto memory = make_memory_system(arch, stats, kSeed);
  memory->begin_kernel(0, traces::KernelInfo{});
  PerSectorReference reference(arch, kSeed);
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
  CHECK(c.l2_sector_hits == reference.l2.sector_hits());
  CHECK(c.l2_sector_lookups == reference.l2.sector_lookups());
  CHECK(c.dram_read_bytes == reference.dram.bytes_read());
  CHECK(reference.l1_hits > 0);  // the stream exercised hits as well as misses
}

Arch small_hopper() {
  Arch a = load_arch("hopper-h100");
  a.l1_bytes = 8 * 4 * 128;  // 8 sets of 4 lines
  a.l2_bytes = 16 * 4 * 128;
  a.l2_ways = 4;
  a.l2_slices = 2;
  return a;
}

}  // namespace

TEST_CASE("sectored L1 loads line by line equal the per-sector path", "[memory]") {
  SECTION("H100 sectors: 32-byte L1 and L2 sectors") { compare(small_hopper()); }
  SECTION("64-byte L1 sectors: two pieces share a cache sector") {
    Arch a = small_hopper();
    a.l1_sector_bytes = 64;
    compare(a);
  }
  SECTION("64-byte L2 sectors: two pieces share an L2 sector") {
    Arch a = small_hopper();
    a.l2_sector_bytes = 64;
    compare(a);
  }
  SECTION("L1 lines of 256 bytes, L2 lines of 128") {
    Arch a = small_hopper();
    a.l1_line_bytes = 256;
    a.l1_bytes = 8 * 4 * 256;
    compare(a);
  }
}
