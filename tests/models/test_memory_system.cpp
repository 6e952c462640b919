// The memory system through access(): each preset's load path, S3.4 stores, L1 invalidation,
// miss merging, shared-memory bank conflicts and what ncu does not count as global traffic.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using traces::CacheOp;
using traces::MemOp;
using traces::MemSpace;

namespace {

template <class F>
traces::Instruction inst(MemSpace space, MemOp op, F addr, CacheOp cache = CacheOp::Default,
                         std::uint32_t mask = traces::kFullMask) {
  traces::Instruction i;
  i.unit = traces::Unit::LdSt;
  i.space = space;
  i.mem_op = op;
  i.cache_op = cache;
  i.width = 4;
  i.active_mask = mask;
  for (int l = 0; l < 32; ++l) i.addr[static_cast<std::size_t>(l)] = addr(l);
  return i;
}

struct Rig {
  Arch arch;
  sim::StatsRegistry stats;
  std::unique_ptr<MemorySystem> mem;
  explicit Rig(const char* preset, const std::vector<std::string>& overrides = {})
      : arch(load_arch(preset, overrides)), mem(make_memory_system(memory_system_specs(arch), stats, 1)) {
    mem->begin_kernel(0, traces::KernelInfo{});
  }
  const MemoryCounters& c() const { return mem->counters(); }
};

constexpr std::uint64_t kBase = 1ull << 32;

}  // namespace

TEST_CASE("Fermi: cached loads move 128-byte lines (S3.2), .cg loads 32-byte segments (S3.3)", "[memory]") {
  Rig r("fermi-m2070");
  auto misaligned = [](int l) { return kBase + 44 + 4u * l; };  // readOffset, offset 11
  const auto res = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, misaligned), 0);
  CHECK(r.c().gld_transactions == 2);
  CHECK(res.passes == 2);  // one replay
  CHECK(r.c().replays == 1);
  CHECK(double(r.c().gld_bytes_requested) / r.c().gld_bytes_moved == 0.5);
  Rig nc("fermi-m2070");
  nc.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, misaligned, CacheOp::Global), 0);
  CHECK(nc.c().gld_transactions == 5);
  CHECK(double(nc.c().gld_bytes_requested) / nc.c().gld_bytes_moved == Approx(0.8).epsilon(0));
  CHECK(nc.c().l1_sector_lookups == 0);
}

TEST_CASE("Fermi/Kepler stores: S3.4 transactions and replays", "[memory]") {
  for (const char* preset : {"fermi-m2070", "kepler-k20x"}) {
    Rig r(preset);
    const std::uint64_t three[3] = {kBase, kBase + 0x820, kBase + 0x2060};
    const auto res = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, [&](int l) { return three[l % 3]; }), 0);
    INFO(preset);
    CHECK(r.c().gst_requests == 1);
    CHECK(r.c().gst_transactions == 3);
    CHECK(res.passes == 3);  // 2 replays
    r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, [](int l) { return kBase + 0x4000 + 4u * l; }), 10);
    CHECK(r.c().gst_transactions == 4);  // + one 4-segment
  }
}

TEST_CASE("Kepler: global loads skip L1 (S3.5); __ldg uses the 32-byte read-only cache (S3.6)", "[memory]") {
  Rig r("kepler-k20x");
  auto line = [](int l) { return kBase + 4u * l; };
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 0);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 2000);
  CHECK(r.c().l1_sector_lookups == 0);
  CHECK(r.c().gld_transactions == 8);  // 4 segments each time
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line, CacheOp::ReadOnly), 4000);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line, CacheOp::ReadOnly), 6000);
  CHECK(r.c().l1_sector_lookups == 8);
  CHECK(r.c().l1_sector_hits == 4);
}

TEST_CASE("Hopper with l1.stores_allocate off: a store invalidates the L1 line it hits (S3.4); concurrent misses merge",
          "[memory]") {
  Rig r("hopper-h100", {"l1.stores_allocate=false"});
  auto line = [](int l) { return kBase + 4u * l; };
  const auto first = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 0);
  // The same line again one cycle later, before the fill is back: L1 hits on the pending sectors
  // and waits for them; DRAM is read once (two 64-byte pieces).
  const auto second = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 1);
  CHECK(second.ready == first.ready);
  CHECK(r.c().l1_sector_hits == 4);
  CHECK(r.c().dram_read_bytes == 128);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, line), first.ready + 1);
  const auto third = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), first.ready + 10);
  CHECK(r.c().l1_sector_hits == 4);  // the line was invalidated by the store
  // ... but L2 has it (a copy near SM 0 if its home is the far half, which SM 0's store wrote
  // through): the hit latency, and a cycle or two because the line's four sectors queue at one
  // slice's port (l2.bytes_per_cycle_per_slice).
  const sim::Cycle port = (3 * 32 + r.arch.l2.bytes_per_cycle_per_slice - 1) / r.arch.l2.bytes_per_cycle_per_slice;
  CHECK(third.ready - (first.ready + 10) >= r.arch.l2.hit_latency);
  CHECK(third.ready - (first.ready + 10) <= r.arch.l2.hit_latency + port);
  // Another SM does not see SM 0's L1.
  r.mem->access(1, 0, inst(MemSpace::Global, MemOp::Load, line), first.ready + 20);
  CHECK(r.c().l1_sector_hits == 4);
}

TEST_CASE("Hopper (l1.stores_allocate): a store hits a resident line, allocates a missing one, and what it wrote "
          "whole is loaded from L1",
          "[memory]") {
  Rig r("hopper-h100");
  REQUIRE(r.arch.l1.stores_allocate);
  auto line = [](int l) { return kBase + 4u * l; };
  const auto load = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 0);
  REQUIRE(r.c().l1_sector_hits == 0);
  // persist_10MB.csv: a warp storing to the line it loaded hits on all four sectors (50.1%).
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, line), load.ready + 1);
  CHECK(r.c().l1_sector_hits == 4);
  CHECK(r.c().l1_sector_lookups == 8);
  // The line stays: a load after the store hits in L1 at the L1's latency.
  const auto again = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), load.ready + 10);
  CHECK(r.c().l1_sector_hits == 8);
  CHECK(again.ready - (load.ready + 10) == r.arch.l1.hit_latency);

  // writeOffset offset 16 (offset.csv: 13.6%): warp w stores sectors 2-3 of line 0 and 0-1 of
  // line 1 and allocates both lines; warp w+1's sectors 2-3 of line 1 then hit, though no sector
  // of them was written before: ncu counts a store sector as a hit when its line is resident.
  const std::uint64_t fresh = kBase + (1u << 20);
  auto warp = [&](int w) { return [=](int l) { return fresh + 64 + 128u * w + 4u * l; }; };
  const std::uint64_t hits = r.c().l1_sector_hits;
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, warp(0)), 10000);
  CHECK(r.c().l1_sector_hits == hits);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, warp(1)), 10010);
  CHECK(r.c().l1_sector_hits == hits + 2);  // line 1's sectors 2-3; line 2's 0-1 allocate it

  // A load of line 1: sectors 0-3 were all written whole by the two stores, so it hits on four.
  const auto back = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, [&](int l) { return fresh + 128 + 4u * l; }),
                                  10100);
  CHECK(r.c().l1_sector_hits == hits + 6);
  CHECK(back.ready - 10100 == r.arch.l1.hit_latency);

  // A partly written sector is not loaded from L1: a store of one word into a new line allocates
  // it; a load of that word's sector misses and goes to L2 (lazy fetch on read).
  const std::uint64_t other = kBase + (2u << 20);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, [&](int) { return other; }), 11000);
  const std::uint64_t before = r.c().l1_sector_hits;
  const auto partial = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, [&](int) { return other; }), 11100);
  CHECK(r.c().l1_sector_hits == before);
  CHECK(partial.ready - 11100 >= r.arch.l2.hit_latency);
}

TEST_CASE("l1.stores_allocate with 64-byte L1 sectors: a sector is valid only when the store wrote all of it",
          "[memory]") {
  Rig r("hopper-h100", {"l1.sector_bytes=64"});
  // Lanes 0-7 write bytes 0-31, half of the line's first 64-byte sector: allocated, not valid.
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, [](int l) { return kBase + 4u * l; }, CacheOp::Default, 0xffu),
                0);
  const auto half = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, [](int) { return kBase; }), 1000);
  CHECK(r.c().l1_sector_hits == 0);
  CHECK(half.ready - 1000 >= r.arch.l2.hit_latency);
  // A whole line's store makes both of its sectors valid: a load of the line hits on them.
  const std::uint64_t other = kBase + 4096;
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, [&](int l) { return other + 4u * l; }), 2000);
  const auto whole = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, [&](int l) { return other + 4u * l; }), 3000);
  CHECK(whole.ready - 3000 == r.arch.l1.hit_latency);
}

TEST_CASE("Fermi and Kepler stores hit nothing in L1 (S3.4, S3.5): l1.stores_allocate is off", "[memory]") {
  for (const char* preset : {"fermi-m2070", "kepler-k20x"}) {
    Rig r(preset);
    INFO(preset);
    CHECK_FALSE(r.arch.l1.stores_allocate);
    auto line = [](int l) { return kBase + 4u * l; };
    const auto load = r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line), 0);
    const std::uint64_t hits = r.c().l1_sector_hits;
    r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Store, line), load.ready + 1);
    CHECK(r.c().l1_sector_hits == hits);
  }
}

TEST_CASE("S3.10 through access(): transposeShared pad 0 costs 32 passes, pad 1 one", "[memory]") {
  Rig r("hopper-h100");
  for (int pad : {0, 1}) {
    const auto before = r.c().shared_bank_conflicts;
    const auto res = r.mem->access(0, 0, inst(MemSpace::Shared, MemOp::Load, [&](int x) { return 4u * (x * (32 + pad) + 5); }), 100);
    INFO("pad " << pad);
    CHECK(res.passes == (pad == 0 ? 32u : 1u));
    CHECK(r.c().shared_bank_conflicts - before == (pad == 0 ? 31u : 0u));
    CHECK(res.ready == 100 + r.arch.units.shared_latency + res.passes - 1);
  }
  CHECK(r.c().shared_requests == 2);
  CHECK(r.c().gld_requests == 0);
  // Every pass is a shared-memory wavefront (utilization_shared); none goes through L1's LSU path.
  CHECK(r.c().shared_wavefronts == 32 + 1);
  CHECK(r.c().l1_wavefronts == 0);
}

TEST_CASE("shared, local, constant and inactive instructions are not global requests", "[memory]") {
  Rig r("hopper-h100");
  auto line = [](int l) { return kBase + 4u * l; };
  r.mem->access(0, 0, inst(MemSpace::Local, MemOp::Load, line), 0);
  r.mem->access(0, 0, inst(MemSpace::Local, MemOp::Store, line), 1);
  r.mem->access(0, 0, inst(MemSpace::Constant, MemOp::Load, [](int) { return 64; }), 2);
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, line, CacheOp::Default, 0u), 3);  // all lanes off
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Atomic, line), 4);
  CHECK(r.c().gld_requests == 0);
  CHECK(r.c().gst_requests == 0);
  CHECK(r.c().gld_sectors == 0);
}

TEST_CASE("a constant load marked uniform is one pass whatever its unwritten lanes hold", "[memory]") {
  // The constant cache serialises distinct addresses, one pass each (the non-uniform case below
  // takes 31 cycles more). The kernel library writes a uniform load's address once, so the
  // other lanes' entries hold whatever the buffer held before and must not be read.
  Rig r("hopper-h100");
  auto stale = [](int l) { return 64u + 4u * l; };
  traces::Instruction uniform = inst(MemSpace::Constant, MemOp::Load, stale, CacheOp::Default, 0xfffffff0u);
  uniform.uniform_address = true;
  const sim::Cycle one_pass = r.mem->access(0, 0, uniform, 100).ready;
  const traces::Instruction spread = inst(MemSpace::Constant, MemOp::Load, stale);
  const sim::Cycle passes = r.mem->access(0, 0, spread, 100).ready;
  CHECK(one_pass == 100 + r.arch.l1.hit_latency);
  CHECK(passes == one_pass + 31);
  CHECK(uniform.address(31) == stale(4));  // the first active lane's entry
}

TEST_CASE("stats registry carries the memory counters by name", "[memory]") {
  Rig r("hopper-h100");
  r.mem->access(0, 0, inst(MemSpace::Global, MemOp::Load, [](int l) { return kBase + 4u * l; }), 0);
  CHECK(r.stats.value("gpu.mem.gld_requests") == 1);
  CHECK(r.stats.value("gpu.mem.gld_sectors") == 4);
  CHECK(r.stats.value("gpu.l2.sector_lookups") == 4);
  CHECK(r.stats.sum("gpu.l2.slice", ".lookups") == 4);
  CHECK(r.stats.value("gpu.dram.read_bytes") == 128);
}

TEST_CASE("local loads are cached in L1 on every preset (S3.5): a repeat hits", "[memory]") {
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    INFO(preset);
    Rig r(preset);
    auto spill = [](int l) { return kBase + 64 + 4u * l; };  // straddles two 128-byte lines
    const auto first = r.mem->access(0, 0, inst(MemSpace::Local, MemOp::Load, spill), 0);
    const std::uint64_t hits_before = r.c().l1_sector_hits;
    const sim::Cycle later = first.ready + 10;
    const auto again = r.mem->access(0, 0, inst(MemSpace::Local, MemOp::Load, spill), later);
    CHECK(r.c().l1_sector_hits > hits_before);
    CHECK(again.ready < later + r.arch.l2.hit_latency);  // served by L1, not L2
    CHECK(first.ready >= r.arch.l2.hit_latency);        // the first one went past L1
    CHECK(r.c().gld_requests == 0);
  }
}
