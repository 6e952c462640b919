// Cache replacement policies (replacement_policy.hpp): LRU and SRRIP on one set, counted hit by
// hit, and the preset parameter reaching the L2 of every preset.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/sector_cache.hpp"
#include "models/simulate.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

// The scan that tells the policies apart, on a set of `ways` ways: ways/2 hot lines used twice,
// then `ways` lines used once (a scan), then the hot lines again. LRU loses every hot line to the
// scan: ways/2 hits, the hot lines' second use. SRRIP inserts the scan's lines "distant" and
// they evict one another; the hot lines, hit once, age by one step only (the scan's first
// eviction after the set is full) and all survive: ways hits.
std::vector<std::uint64_t> hot_scan_hot(std::uint32_t ways) {
  std::vector<std::uint64_t> lines;
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint32_t h = 0; h < ways / 2; ++h) lines.push_back(h);
  for (std::uint32_t s = 0; s < ways; ++s) lines.push_back(1000 + s);
  for (std::uint32_t h = 0; h < ways / 2; ++h) lines.push_back(h);
  return lines;
}

std::uint32_t hits_in_one_set(std::uint32_t ways, std::uint32_t replacement) {
  SectorCache cache(SectorCacheGeometry{ways * 128, 128, 32, ways, replacement});  // one set
  REQUIRE(cache.sets() == 1);
  std::uint32_t hits = 0;
  for (const std::uint64_t line : hot_scan_hot(ways)) {
    bool present = false;
    cache.find_or_install(line, LineClass::Normal, present);
    hits += present ? 1 : 0;
  }
  return hits;
}

}  // namespace

TEST_CASE("a scan evicts LRU's hot lines but not SRRIP's, hit for hit", "[models][memory]") {
  const std::uint32_t lru = *ReplacementPolicies::index_of("lru"), srrip = *ReplacementPolicies::index_of("srrip");
  for (std::uint32_t ways : {4u, 8u, 16u}) {
    INFO(ways << " ways");
    CHECK(hits_in_one_set(ways, lru) == ways / 2);
    CHECK(hits_in_one_set(ways, srrip) == ways);
  }
}

TEST_CASE("SRRIP keeps a dirty line's write-back order by its ranks, not by recency", "[models][memory]") {
  // Two dirty lines: the older one was hit since (rank 3), the newer not (rank 1). LRU writes the
  // older back first; SRRIP the one it predicts is re-used last, the newer.
  for (const char* name : {"lru", "srrip"}) {
    INFO(name);
    SectorCache cache(SectorCacheGeometry{4 * 128, 128, 32, 4, *ReplacementPolicies::index_of(name)});
    bool present = false;
    const SectorCache::Line older = cache.find_or_install(1, LineClass::Normal, present);
    cache.find_or_install(1, LineClass::Normal, present);  // a hit
    const SectorCache::Line newer = cache.find_or_install(2, LineClass::Normal, present);
    cache.mark_dirty(older, 0);
    cache.mark_dirty(newer, 0);
    SectorCache::Line first;
    CHECK(cache.dirty_lines(0, LineClass::Persisting, SectorCache::Line{}, first) == 2);
    CHECK(first.slot == (std::string(name) == "lru" ? older.slot : newer.slot));
  }
}

TEST_CASE("l2.replacement reaches the L2 of every preset", "[models][memory][l2]") {
  // Each preset's L2 (its ways, lines and sectors, its policy chosen by the parameter) cut down to
  // one set of one slice in one partition, so every line lands in the same set.
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    for (const char* policy : {"lru", "srrip"}) {
      INFO(preset << " with l2.replacement=" << policy);
      Arch arch = load_arch(preset, {std::string("l2.replacement=") + policy});
      arch.l2.size_bytes = std::uint64_t{arch.l2.ways} * arch.l2.line_bytes;
      arch.l2.slices = 1;
      arch.l2.partitions = 1;
      sim::StatsRegistry stats;
      BankedDram dram{arch.dram, arch.gpu.core_clock_khz, 7};
      L2Cache l2{arch.l2, arch.gpu.core_clock_khz, dram, stats};
      std::uint32_t hits = 0;
      sim::Cycle now = 0;
      for (const std::uint64_t line : hot_scan_hot(arch.l2.ways)) {
        bool hit = false;
        now = l2.read(line * arch.l2.line_bytes, now, L2Hint::Default, 0, hit);
        hits += hit ? 1 : 0;
      }
      CHECK(hits == (std::string(policy) == "lru" ? arch.l2.ways / 2 : arch.l2.ways));
    }
  }
}

TEST_CASE("every preset runs a kernel with SRRIP in its L1 and L2", "[models][memory]") {
  // The same instructions either way; only where the data is found may change.
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    INFO(preset);
    const RunResult lru = simulate({preset, {}, "stridedRead", {"n=65536", "stride=4"}, "", 1});
    const RunResult srrip =
        simulate({preset, {"l1.replacement=srrip", "l2.replacement=srrip"}, "stridedRead", {"n=65536", "stride=4"}, "", 1});
    CHECK(srrip.cycles > 0);
    CHECK(srrip.warp_instructions == lru.warp_instructions);
  }
}
