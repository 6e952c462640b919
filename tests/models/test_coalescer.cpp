// The coalescer's rules as pure functions (SPEC S3.2-S3.4, S3.10; examples from seeds/000).
// Everything here is exact: the rules are counting rules.
#include <catch2/catch.hpp>

#include <map>
#include <numeric>
#include <set>

#include "models/memory/coalescer.hpp"
#include "sim/rng.hpp"

using namespace warpsim;
using namespace warpsim::models::memory;
using traces::Instruction;

namespace {

// A warp of `width`-byte accesses, lane l at address addr(l); lanes outside `mask` inactive.
template <class F>
Instruction warp(F addr, std::uint8_t width = 4, std::uint32_t mask = traces::kFullMask) {
  Instruction inst;
  inst.unit = traces::Unit::LdSt;
  inst.space = traces::MemSpace::Global;
  inst.mem_op = traces::MemOp::Load;
  inst.width = width;
  inst.active_mask = mask;
  for (int l = 0; l < 32; ++l) inst.addr[static_cast<std::size_t>(l)] = addr(l);
  return inst;
}

SectorSet sectors_of(const Instruction& inst) {
  SectorSet s;
  gather_sectors(inst, s);
  return s;
}

double efficiency(const SectorSet& s, std::uint32_t moved_bytes) { return double(s.useful_bytes()) / moved_bytes; }

}  // namespace

TEST_CASE("S3.2 cached loads: one access per 128-byte line, lanes permuted freely", "[memory][coalescer]") {
  BlockList lines;
  // Aligned and consecutive: 1 line, 100% of the bus.
  auto aligned = sectors_of(warp([](int l) { return 0x1000 + 4u * l; }));
  gather_blocks(aligned, 128, lines);
  CHECK(lines.count == 1);
  CHECK(efficiency(aligned, 128 * lines.count) == 1.0);
  // seeds/000: lanes permuted inside one 128-byte line -> still 1 access.
  auto permuted = sectors_of(warp([](int l) { return 0x1000 + 4u * ((l * 7) % 32); }));
  gather_blocks(permuted, 128, lines);
  CHECK(lines.count == 1);
  // Misaligned across two lines: 2 accesses (1 replay), 50% of the bytes moved are used.
  auto misaligned = sectors_of(warp([](int l) { return 0x1000 + 44 + 4u * l; }));
  gather_blocks(misaligned, 128, lines);
  CHECK(lines.count == 2);
  CHECK(efficiency(misaligned, 128 * lines.count) == 0.5);
  // Scattered: every lane its own line -> 32 accesses.
  auto scattered = sectors_of(warp([](int l) { return 0x1000 + 4096u * l; }));
  gather_blocks(scattered, 128, lines);
  CHECK(lines.count == 32);
}

TEST_CASE("S3.3 uncached loads: one access per 32-byte segment touched", "[memory][coalescer]") {
  // Misaligned 160-byte range of 4-byte loads -> 5 segments, 128/160 = 80%.
  auto misaligned = sectors_of(warp([](int l) { return 0x2000 + 16 + 4u * l; }));
  CHECK(misaligned.count == 5);
  CHECK(efficiency(misaligned, 32 * misaligned.count) == Approx(0.8).epsilon(0));
  // All lanes on one address -> 1 segment, 4/32 = 12.5%.
  auto same = sectors_of(warp([](int) { return 0x2004; }));
  CHECK(same.count == 1);
  CHECK(efficiency(same, 32) == 0.125);
  // seeds/000 (NVIDIA's answer): a scattered pattern over bytes 0-255 touching 6 segments takes
  // 6 accesses, not fewer by merging.
  const std::uint64_t picks[6] = {0, 40, 100, 140, 200, 250};  // segments 0,1,3,4,6,7
  auto six = sectors_of(warp([&](int l) { return picks[l % 6] / 4 * 4; }));
  CHECK(six.count == 6);
  // Wider accesses follow the same sector logic: 32 x 8 bytes aligned = 8 sectors, 32 x 16 = 16.
  CHECK(sectors_of(warp([](int l) { return 0x4000 + 8u * l; }, 8)).count == 8);
  CHECK(sectors_of(warp([](int l) { return 0x4000 + 16u * l; }, 16)).count == 16);
  // An unaligned 8-byte access straddling a sector boundary touches both sectors.
  CHECK(sectors_of(warp([](int) { return 0x4000 + 28; }, 8, 1u)).count == 2);
  // Inactive lanes don't count: 31 lanes of a misaligned warp (offset 1, last lane past n).
  CHECK(sectors_of(warp([](int l) { return 0x5000 + 4 + 4u * l; }, 4, 0x7fffffffu)).count == 4);
}

TEST_CASE("S3.4 stores: 4-, then 2-, then 1-segment transactions, replaying until covered", "[memory][coalescer]") {
  StoreTransactionList t;
  // Aligned and consecutive -> one 4-segment transaction.
  plan_store_transactions(sectors_of(warp([](int l) { return 0x3000 + 4u * l; })), t);
  REQUIRE(t.count == 1);
  CHECK(t.items[0].segments == 4);
  CHECK(t.items[0].address == 0x3000);
  // Inside one aligned 64 B -> one 2-segment transaction.
  plan_store_transactions(sectors_of(warp([](int l) { return 0x3040 + 2u * l; }, 2)), t);
  REQUIRE(t.count == 1);
  CHECK(t.items[0].segments == 2);
  CHECK(t.items[0].address == 0x3040);
  // seeds/000: three scattered segments -> three 1-segment transactions (2 replays).
  const std::uint64_t three[3] = {0x3000, 0x3820, 0x5060};
  plan_store_transactions(sectors_of(warp([&](int l) { return three[l % 3]; })), t);
  REQUIRE(t.count == 3);
  for (std::uint32_t i = 0; i < 3; ++i) {
    CHECK(t.items[i].segments == 1);
    CHECK(t.items[i].address == three[i]);
  }
  // Two addresses in one 128 B region but different 64 B halves -> one 4-segment.
  const std::uint64_t two[2] = {0x6000 + 8, 0x6000 + 100};
  plan_store_transactions(sectors_of(warp([&](int l) { return two[l % 2]; })), t);
  REQUIRE(t.count == 1);
  CHECK(t.items[0].segments == 4);
  // Misaligned 160 B (Fermi writeOffset, offset 11): one 4-segment + one 2-segment, 5 segments
  // written, 128/160 = 80% gst_efficiency as S5 measured.
  auto misaligned = sectors_of(warp([](int l) { return 0x7000 + 44 + 4u * l; }));
  plan_store_transactions(misaligned, t);
  REQUIRE(t.count == 2);
  CHECK(t.items[0].segments == 4);
  CHECK(t.items[1].segments == 2);
  CHECK(efficiency(misaligned, 32 * misaligned.count) == Approx(0.8).epsilon(0));
}

TEST_CASE("S3.8 AoS touching one field of {float x, y} uses half the bytes moved", "[memory][coalescer]") {
  auto aos = sectors_of(warp([](int l) { return 0x8000 + 8u * l; }));
  CHECK(efficiency(aos, 32 * aos.count) == 0.5);
  auto soa = sectors_of(warp([](int l) { return 0x8000 + 4u * l; }));
  CHECK(efficiency(soa, 32 * soa.count) == 1.0);
}

TEST_CASE("S3.10 shared-memory banks: transpose tile 32x32 conflicts 32-way, 32x33 not at all", "[memory][coalescer]") {
  // transposeShared reads tile[threadIdx.x][threadIdx.y + j]: lane x at word x*(32+pad) + y.
  for (int pad : {0, 1}) {
    auto inst = warp([&](int x) { return 4u * (x * (32 + pad) + 3); });
    inst.space = traces::MemSpace::Shared;
    const SharedAccessShape shape = shared_bank_shape(inst);
    INFO("pad " << pad);
    CHECK(shape.passes == (pad == 0 ? 32u : 1u));
    CHECK(shape.conflicts() == (pad == 0 ? 31u : 0u));
  }
  // Same word in every lane: broadcast, no conflict.
  auto broadcast = warp([](int) { return 64; });
  CHECK(shared_bank_shape(broadcast).conflicts() == 0);
  // Two lanes per bank on different words (stride 2 words): 2-way.
  CHECK(shared_bank_shape(warp([](int l) { return 8u * l; })).passes == 2);
  // 8-byte accesses, consecutive: 2 passes by necessity, no conflict.
  auto wide = warp([](int l) { return 8u * l; }, 8);
  CHECK(shared_bank_shape(wide).passes == 2);
  CHECK(shared_bank_shape(wide).conflicts() == 0);
}

TEST_CASE("shared-memory passes equal a count of distinct words bank by bank, tiles and scattered lanes alike", "[memory][coalescer]") {
  // Random warps: addresses within a small tile (the bitmap path), or far apart (the sorted
  // path), every width, holes in the mask, lanes on the same word; against a brute-force count.
  sim::Rng rng(23, "banks");
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint8_t width = static_cast<std::uint8_t>(1u << (rng.next() % 5));
    const std::uint64_t span = trial % 3 == 0 ? (std::uint64_t{1} << 30) : 64 + rng.next() % 20000;
    const std::uint64_t base = rng.next() % 100000;
    std::uint64_t lanes[32];
    for (auto& a : lanes) a = (base + rng.next() % span) / width * width;
    if (trial % 5 == 1) lanes[7] = lanes[3];  // a broadcast pair
    const std::uint32_t mask = trial % 4 == 2 ? static_cast<std::uint32_t>(rng.next()) : traces::kFullMask;
    const Instruction inst = warp([&](int l) { return lanes[l]; }, width, mask);
    std::set<std::uint64_t> words;
    for (int l = 0; l < 32; ++l)
      if (mask >> l & 1u)
        for (std::uint32_t w = 0; w < std::max<std::uint32_t>(1, width / 4); ++w) words.insert(lanes[l] / 4 + w);
    std::uint32_t per_bank[32] = {}, passes = 0;
    for (std::uint64_t w : words) passes = std::max(passes, ++per_bank[w % 32]);
    const SharedAccessShape shape = shared_bank_shape(inst);
    INFO("trial " << trial);
    REQUIRE(shape.passes == passes);
    REQUIRE(shape.ideal_passes == (words.size() + 31) / 32);
  }
}

TEST_CASE("gathered sectors, byte masks, bytes used and blocks equal a byte-by-byte count", "[memory][coalescer]") {
  // Contiguous runs of lanes (gather_sectors' arithmetic path for unit strides), holes, strides
  // and lanes going backwards, every width, at every alignment within a sector.
  sim::Rng rng(17, "gather");
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint8_t width = static_cast<std::uint8_t>(1u << (rng.next() % 5));
    const std::uint64_t base = 0x10000 + rng.next() % 256;
    const std::uint32_t first = static_cast<std::uint32_t>(rng.next() % 32);
    const std::uint32_t run = static_cast<std::uint32_t>(rng.next() % (32 - first)) + 1;
    const std::uint32_t pattern = static_cast<std::uint32_t>(rng.next() % 4);
    std::uint32_t mask = run == 32 ? traces::kFullMask : ((1u << run) - 1) << first;
    if (pattern == 1) mask &= static_cast<std::uint32_t>(rng.next()) | 1u << first;  // holes
    const std::uint64_t stride = pattern == 2 ? width * (1 + rng.next() % 3) : width;
    const Instruction inst = warp(
        [&](int l) { return pattern == 3 ? base + (31 - l) * std::uint64_t{width} : base + l * stride; }, width, mask);
    std::map<std::uint64_t, std::uint32_t> bytes;  // sector -> byte mask
    for (int l = 0; l < 32; ++l) {
      if (!(mask >> l & 1u)) continue;
      const std::uint64_t a = inst.addr[static_cast<std::size_t>(l)];
      for (std::uint64_t b = a; b < a + width; ++b) bytes[b / 32 * 32] |= 1u << (b % 32);
    }
    const SectorSet s = sectors_of(inst);
    INFO("trial " << trial << " width " << int(width) << " pattern " << pattern);
    REQUIRE(s.count == bytes.size());
    std::uint32_t i = 0, useful = 0;
    std::set<std::uint64_t> lines, halves;
    for (const auto& [sector, used] : bytes) {
      REQUIRE(s.address[i] == sector);
      REQUIRE(s.used[i] == used);
      useful += static_cast<std::uint32_t>(__builtin_popcount(used));
      lines.insert(sector / 128);
      halves.insert(sector / 64);
      ++i;
    }
    REQUIRE(s.useful_bytes() == useful);
    REQUIRE(s.distinct_blocks(128) == lines.size());
    REQUIRE(s.distinct_blocks(64) == halves.size());
    REQUIRE(s.distinct_blocks(32) == bytes.size());
  }
}
