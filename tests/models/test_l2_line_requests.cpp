// L2Cache::read_sectors and write_sectors (one instruction's sectors of one line in one request)
// must behave exactly as read() and write() called once per sector in ascending order: the same
// cycles, lookups, DRAM traffic, dirty write-backs and persisting lines, on a small L2 of two
// partitions driven hard (few sets, a set-aside, a dirty-line limit, ECC partial-write fills) by a
// random access stream from both sides. Hits may differ only one way: a sector the request's own
// 64-byte fetch brought in is a miss for the request, a hit for the next per-sector read.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "sim/rng.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

Arch small_l2() {
  Arch a = load_arch("hopper-h100");
  a.l2.size_bytes = 8 * 4 * 128;  // two slices of four sets of four lines
  a.l2.ways = 4;
  a.l2.slices = 2;  // two partitions of one slice each (the H100's l2.partitions)
  a.l2.persist_max_bytes = a.l2.size_bytes / 2;
  a.l2.dirty_lines_per_set = 2;
  a.l2.fill_partial_writes = true;
  return a;
}

struct Rig {
  Arch arch = small_l2();
  sim::StatsRegistry stats;
  BankedDram dram{arch.dram, arch.gpu.core_clock_khz, 7};
  L2Cache l2{arch.l2, arch.gpu.core_clock_khz, dram, stats};
  Rig() { l2.set_set_aside(arch.l2.persist_max_bytes); }
};

}  // namespace

TEST_CASE("L2 line requests equal one request per sector", "[memory][l2]") {
  Rig whole, per_sector;
  sim::Rng rng(3, "l2-line-requests");
  const L2Hint hints[] = {L2Hint::Default, L2Hint::Normal, L2Hint::Streaming, L2Hint::Persisting};
  sim::Cycle now = 0;
  std::uint64_t fewer_hits = 0;
  for (int step = 0; step < 20000; ++step) {
    now += rng.next() % 4;
    const std::uint64_t line_address = (rng.next() % 96) * 128;
    const std::uint32_t sectors = static_cast<std::uint32_t>(rng.next() % 15) + 1;  // 1 to 4 of the 4 sectors
    const std::uint32_t partial = static_cast<std::uint32_t>(rng.next()) & sectors;
    const L2Hint hint = hints[rng.next() % 4];
    const auto side = static_cast<std::uint32_t>(rng.next() % 2);  // the requesting SM's partition
    INFO("step " << step);
    if (rng.next() % 2 == 0) {
      sim::Cycle ready[8] = {};
      const std::uint32_t hits = whole.l2.read_sectors(line_address, sectors, now, hint, side, ready);
      std::uint32_t expected_hits = 0;
      for (std::uint32_t s = 0; s < 4; ++s) {
        if (!(sectors >> s & 1u)) continue;
        bool hit = false;
        REQUIRE(per_sector.l2.read(line_address + 32 * s, now, hint, side, hit) == ready[s]);
        expected_hits += hit ? 1 : 0;
      }
      REQUIRE(hits <= expected_hits);
      fewer_hits += expected_hits - hits;
    } else {
      sim::Cycle expected = now;
      for (std::uint32_t s = 0; s < 4; ++s)
        if (sectors >> s & 1u)
          expected = std::max(expected, per_sector.l2.write(line_address + 32 * s, now, hint, side, partial >> s & 1u));
      REQUIRE(whole.l2.write_sectors(line_address, sectors, partial, now, hint, side) == expected);
    }
  }
  REQUIRE(whole.l2.sector_hits() + fewer_hits == per_sector.l2.sector_hits());
  REQUIRE(whole.l2.forwarded_lookups() == per_sector.l2.forwarded_lookups());
  REQUIRE(whole.l2.forwarded_lookups() > 0);  // both partitions were exercised
  REQUIRE(whole.l2.sector_lookups() == per_sector.l2.sector_lookups());
  REQUIRE(whole.dram.bytes_read() == per_sector.dram.bytes_read());
  REQUIRE(whole.dram.bytes_written() == per_sector.dram.bytes_written());
  REQUIRE(whole.l2.eager_write_backs() == per_sector.l2.eager_write_backs());
  REQUIRE(whole.l2.partial_write_fills() == per_sector.l2.partial_write_fills());
  REQUIRE(whole.l2.persisting_bytes() == per_sector.l2.persisting_bytes());
  REQUIRE(whole.l2.eager_write_backs() > 0);  // the stream exercised what it is meant to
  REQUIRE(whole.l2.partial_write_fills() > 0);
  REQUIRE(whole.l2.persisting_bytes() > 0);
  for (std::uint64_t a = 0; a < 96 * 128; a += 32) REQUIRE(whole.l2.contains(a) == per_sector.l2.contains(a));
}
