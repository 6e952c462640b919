// Partial sectors written back (preset l2.fill_partial_write_backs, l2_cache.hpp): a dirty sector
// whose stores wrote only some of its bytes, and that the L2 never had whole, is read from DRAM
// when it is written back; one that other stores completed, or that the L2 had read, is not. The
// H200 reads one 32-byte sector a line written back when a warp stores one float a line
// (h200/stream_latency_ncu.csv, lane0_store), and nothing more for whole lines or for
// writeOffset's split sectors, which two warps complete (offset.csv).
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

// One slice, two sets of four 128-byte lines (even line numbers in set 0), no dirty limit: a
// line is written back when a fifth line of its set evicts it.
struct Rig {
  Arch arch;
  sim::StatsRegistry stats;
  BankedDram dram;
  L2Cache l2;
  sim::Cycle now = 0;
  explicit Rig(bool fill_partial_write_backs)
      : arch(tiny(fill_partial_write_backs)),
        dram(arch.dram, arch.gpu.core_clock_khz, 1),
        l2(arch.l2, arch.gpu.core_clock_khz, dram, stats) {}
  static Arch tiny(bool on) {
    Arch a = load_arch("hopper-h200");
    REQUIRE(a.l2.fill_partial_write_backs);  // the preset's, from the H200's measurement
    a.l2.size_bytes = 2 * 4 * 128;
    a.l2.ways = 4;
    a.l2.slices = 1;
    a.l2.partitions = 1;
    a.l2.persist_max_bytes = a.l2.size_bytes;
    a.l2.dirty_lines_per_set = 0;
    a.l2.fill_partial_write_backs = on;
    return a;
  }
  // Stores `bytes` (a byte mask) of sector `sector` of line `line`.
  void store(std::uint64_t line, std::uint32_t sector, std::uint32_t bytes) {
    const std::uint32_t masks[8] = {bytes, bytes, bytes, bytes, bytes, bytes, bytes, bytes};
    const std::uint32_t partial = bytes == 0xffffffffu ? 0 : 1u << sector;
    l2.write_sectors(line * 128, 1u << sector, partial, now += 10, L2Hint::Default, 0, masks);
  }
  // Four more lines of set 0 (line numbers 16 up): every line stored to before is written back.
  void evict_set_0() {
    for (std::uint64_t line = 16; line < 24; line += 2)
      l2.write_sectors(line * 128, 1u, 0, now += 10, L2Hint::Default, 0);
  }
};

}  // namespace

TEST_CASE("L2 partial write-backs: a sector written in part is read from DRAM as it goes back", "[memory][l2]") {
  Rig r(true);
  r.store(0, 0, 0x0000000fu);  // one float: bytes 0-3 of sector 0 (lane0_store)
  CHECK(r.dram.bytes_read() == 0);  // nothing at the store (offset.csv: no fill then)
  r.evict_set_0();
  CHECK(r.l2.partial_write_back_fills() == 1);
  CHECK(r.dram.bytes_read() == 32);      // the sector, read
  CHECK(r.dram.bytes_written() == 32);   // and written back merged
}

TEST_CASE("L2 partial write-backs: whole sectors, and sectors the stores completed, are only written", "[memory][l2]") {
  Rig r(true);
  r.store(0, 0, 0xffffffffu);  // a whole sector
  r.store(2, 1, 0x00000fffu);  // writeOffset's split sector: bytes 0-11 by one warp ...
  r.store(2, 1, 0xfffff000u);  // ... 12-31 by its neighbour
  r.store(4, 2, 0x000000ffu);  // in part, then whole
  r.store(4, 2, 0xffffffffu);
  r.evict_set_0();
  CHECK(r.l2.partial_write_back_fills() == 0);
  CHECK(r.dram.bytes_read() == 0);
  CHECK(r.dram.bytes_written() == 3 * 32);
}

TEST_CASE("L2 partial write-backs: a sector the L2 read whole is not read again", "[memory][l2]") {
  Rig r(true);
  sim::Cycle ready[8] = {};
  r.l2.read_sectors(0, 1u, r.now += 10, L2Hint::Default, 0, ready);  // a load brings sector 0 (and 1) in
  const std::uint64_t fetched = r.dram.bytes_read();
  REQUIRE(fetched > 0);
  r.store(0, 0, 0x0000000fu);  // then one float of it
  r.evict_set_0();
  CHECK(r.l2.partial_write_back_fills() == 0);
  CHECK(r.dram.bytes_read() == fetched);
}

TEST_CASE("L2 partial write-backs: once written back the sector is whole; off, nothing is read", "[memory][l2]") {
  Rig on(true);
  on.store(0, 3, 0x0000000fu);
  on.evict_set_0();
  on.store(0, 3, 0x000000f0u);  // the line again, new to L2: incomplete again
  on.evict_set_0();
  CHECK(on.l2.partial_write_back_fills() == 2);
  CHECK(on.dram.bytes_read() == 64);
  Rig off(false);
  off.store(0, 3, 0x0000000fu);
  off.evict_set_0();
  CHECK(off.l2.partial_write_back_fills() == 0);
  CHECK(off.dram.bytes_read() == 0);
  CHECK(off.dram.bytes_written() == 32);
}
