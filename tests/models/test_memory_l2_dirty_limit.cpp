// The L2's limit on dirty lines per set (preset l2.dirty_lines_per_set, l2_cache.hpp): a store
// that makes a normal or streaming line dirty in a set already holding the limit writes the least
// recently used other dirty line back to DRAM; that line stays valid and clean, so later reads
// still hit. Persisting lines are exempt. This is why persist_10MB.csv without a window writes
// every store sweep over its hot region (536.5 MB) while hitRatio 1.0 writes only the streamed
// data (268.9 MB), and why offset.csv lg=26 leaves ~10 MB of its stores unwritten at the end.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

// One slice, two sets of four 128-byte lines: even line numbers map to set 0, odd to set 1.
Arch tiny_l2(std::uint32_t dirty_limit) {
  Arch a = load_arch("hopper-h100");
  a.l2.size_bytes = 2 * 4 * 128;
  a.l2.ways = 4;
  a.l2.slices = 1;
  a.l2.partitions = 1;
  a.l2.persist_max_bytes = a.l2.size_bytes;
  a.l2.dirty_lines_per_set = dirty_limit;
  return a;
}

struct Rig {
  Arch arch;
  sim::StatsRegistry stats;
  BankedDram dram;
  L2Cache l2;
  sim::Cycle now = 0;
  explicit Rig(std::uint32_t limit)
      : arch(tiny_l2(limit)),
        dram(arch.dram, arch.gpu.core_clock_khz, 1),
        l2(arch.l2, arch.gpu.core_clock_khz, dram, stats) {}
  void store(std::uint64_t line, L2Hint hint = L2Hint::Default) { l2.write(line * 128, now += 10, hint, 0); }
  bool read_hits(std::uint64_t line) {
    bool hit = false;
    l2.read(line * 128, now += 10, L2Hint::Default, 0, hit);
    return hit;
  }
};

}  // namespace

TEST_CASE("L2 dirty limit: the oldest other dirty line of the set is written back and stays, clean",
          "[memory][l2]") {
  Rig r(2);
  REQUIRE(r.l2.line_bytes() == 128);
  // Lines 0, 2, 4 are set 0. Two dirty lines are within the limit: nothing reaches DRAM.
  r.store(0);
  r.store(2);
  CHECK(r.dram.bytes_written() == 0);
  // The third dirty line exceeds it: line 0 (least recently used) writes its one dirty sector.
  r.store(4);
  CHECK(r.dram.bytes_written() == 32);
  CHECK(r.l2.eager_write_backs() == 1);
  CHECK(r.l2.contains(0));   // still valid ...
  CHECK(r.read_hits(0));     // ... so a read hits without DRAM
  CHECK(r.dram.bytes_read() == 0);
  // A second store to a line that is already dirty changes nothing (2 and 4 are dirty).
  r.store(4);
  CHECK(r.dram.bytes_written() == 32);
  // Line 0 dirty again (it was cleaned): three dirty once more, and the oldest other is line 2.
  // (The read of line 0 above made it the most recently used, so line 2 is the oldest.)
  r.store(0);
  CHECK(r.dram.bytes_written() == 64);
  CHECK(r.l2.eager_write_backs() == 2);
  // Set 1 is independent: one dirty line there writes nothing.
  r.store(1);
  CHECK(r.dram.bytes_written() == 64);
}

TEST_CASE("L2 dirty limit: persisting lines neither count nor get written back", "[memory][l2]") {
  Rig r(1);
  r.l2.set_set_aside(r.arch.l2.size_bytes);
  r.store(0, L2Hint::Persisting);
  r.store(2, L2Hint::Persisting);
  r.store(4);  // the only dirty normal line: within the limit of 1
  CHECK(r.dram.bytes_written() == 0);
  r.store(6);  // two dirty normal lines: line 4 goes back, the persisting lines stay dirty
  CHECK(r.dram.bytes_written() == 32);
  CHECK(r.l2.persisting_bytes() == 256);
  // Storing again and again to the persisting lines never reaches DRAM.
  for (int k = 0; k < 10; ++k) {
    r.store(0, L2Hint::Persisting);
    r.store(2, L2Hint::Persisting);
  }
  CHECK(r.dram.bytes_written() == 32);
}

TEST_CASE("L2 dirty limit 0: dirty lines are written back on eviction only", "[memory][l2]") {
  Rig r(0);
  for (std::uint64_t line = 0; line < 8; line += 2) r.store(line);  // fills set 0's four ways
  CHECK(r.dram.bytes_written() == 0);
  r.store(8);  // a fifth line evicts the least recently used (line 0) with its dirty sector
  CHECK(r.dram.bytes_written() == 32);
  CHECK_FALSE(r.l2.contains(0));
  CHECK(r.l2.eager_write_backs() == 0);
}

TEST_CASE("L2 partial-sector stores with DRAM ECC: the first fetches the sector, the one completing it does not",
          "[memory][l2]") {
  Arch a = tiny_l2(0);
  a.l2.fill_partial_writes = true;
  sim::StatsRegistry stats;
  BankedDram dram(a.dram, a.gpu.core_clock_khz, 1);
  L2Cache l2(a.l2, a.gpu.core_clock_khz, dram, stats);
  // writeOffset at offset 11 (SPEC S5): warp k stores bytes 44..171 of its 128-byte span, so
  // sector 1 of each line is written in two parts, by warps k-1 (bytes 32..43) and k (44..63).
  l2.write(128 + 32, 10, L2Hint::Default, 0, /*partial=*/true);  // first part: fetch
  CHECK(l2.partial_write_fills() == 1);
  // The fetch moves DRAM's unit, the 64-byte sector pair around the sector (l2_cache.hpp).
  CHECK(dram.bytes_read() == 64);
  l2.write(128 + 32, 20, L2Hint::Default, 0, /*partial=*/true);  // second part: sector valid
  CHECK(l2.partial_write_fills() == 1);
  CHECK(dram.bytes_read() == 64);
  // Whole-sector stores never fetch; neither does a partial store to a sector they made valid.
  l2.write(256 + 64, 30, L2Hint::Default, 0, /*partial=*/false);
  l2.write(256 + 64, 40, L2Hint::Default, 0, /*partial=*/true);
  CHECK(l2.partial_write_fills() == 1);
  CHECK(dram.bytes_read() == 64);
  // The switch off (H100): partial stores validate their sector without DRAM.
  Arch h = tiny_l2(0);
  sim::StatsRegistry stats_h;
  BankedDram dram_h(h.dram, h.gpu.core_clock_khz, 1);
  L2Cache l2_h(h.l2, h.gpu.core_clock_khz, dram_h, stats_h);
  l2_h.write(128 + 32, 10, L2Hint::Default, 0, /*partial=*/true);
  CHECK(dram_h.bytes_read() == 0);
  CHECK(l2_h.partial_write_fills() == 0);
}

TEST_CASE("L2: a store that writes a dirty line back is acknowledged when DRAM takes the write-back",
          "[memory][l2]") {
  // l2_cache.hpp: the L2 has nowhere else for the evicted data. Line 0's channel is made busy
  // for ~1,500 cycles (1,000 sector writes at 1.5 cycles each on the H100's 80 channels); then
  // a store that pushes line 0 out over the set's limit of one dirty line waits for it, and a
  // store that writes nothing back does not.
  Rig r(1);
  r.store(0);
  r.now += 10;
  for (int k = 0; k < 1000; ++k) r.dram.write(0, 32, r.now);
  const sim::Cycle plain = r.l2.write(1 * 128, r.now, L2Hint::Default, 0);  // set 1: within its limit
  CHECK(plain < r.now + 1000);
  const sim::Cycle evicting = r.l2.write(2 * 128, r.now, L2Hint::Default, 0);  // set 0: writes line 0 back
  CHECK(r.l2.eager_write_backs() == 1);
  CHECK(evicting > r.now + 1000);
  // The write-back went after the 1,000 queued ones, and the acknowledgement is when it starts:
  // the next write to that channel starts a burst (1.5 cycles, rounded up) later.
  const sim::Cycle next = r.dram.write(0, 32, r.now);
  CHECK(next >= evicting);
  CHECK(next <= evicting + 3);
}
