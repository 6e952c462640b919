// What a set-aside for persisting lines costs writes that use no window: each dirty line's
// write-back holds its L2 slice l2.set_aside_write_back_cycles[ways set aside] more
// (h100-measured/setaside_stores.csv: a 256 MB write stream takes 91.5 us with no set-aside and
// 213.5 us with the largest, whatever the order of its lines or the warps storing them).
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "models/memory/l2_spec.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

struct Stream {
  sim::Cycle last_ack = 0;
  std::uint64_t write_backs = 0;
};

// 32 MB of whole lines stored at once by an SM near partition 0, under `set_aside` bytes:
// the last store's acknowledgement, and how many lines the L2 wrote back meanwhile.
Stream store_stream(const Arch& arch, std::uint64_t set_aside) {
  sim::StatsRegistry stats;
  BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
  L2Cache l2(arch.l2, arch.gpu.core_clock_khz, dram, stats);
  l2.set_set_aside(set_aside);
  Stream s;
  for (std::uint64_t line = 0; line < (32u << 20) / 128; ++line) {
    const std::uint64_t address = (std::uint64_t{1} << 32) + line * 128;
    s.last_ack = std::max(s.last_ack, l2.write_sectors(address, 0xF, 0, 0, L2Hint::Default, 0));
  }
  s.write_backs = l2.eager_write_backs();
  return s;
}

}  // namespace

TEST_CASE("a set-aside makes each write-back hold its L2 slice the preset's cycles for its ways", "[memory][l2]") {
  const Arch h100 = load_arch("hopper-h100");
  const auto& cycles = h100.l2.set_aside_write_back_cycles;
  REQUIRE(cycles.size() == 11);  // 0 to 10 ways: the largest set-aside, 32,000 KB, is 10 of 16
  const std::uint64_t way = h100.l2.size_bytes / h100.l2.ways;
  const Stream none = store_stream(h100, 0);
  const Stream largest = store_stream(h100, h100.l2.persist_max_bytes);
  REQUIRE(largest.write_backs > 100000);  // past three dirty lines a set, every line stored writes one back
  CHECK(largest.write_backs == none.write_backs);  // the set-aside changes when, not what
  // Every slice's port then serves its share of the stores (128 B at l2.bytes_per_cycle_per_slice)
  // and of the write-backs at 13.8 cycles each: the last acknowledgement comes no sooner, and
  // DRAM, the limit without a set-aside, comes well before.
  const double lines_per_slice = double((32u << 20) / 128) / h100.l2.slices;
  const double slice_bound = lines_per_slice * 128.0 / h100.l2.bytes_per_cycle_per_slice +
                             double(largest.write_backs) / h100.l2.slices * cycles.back();
  INFO("write-backs " << largest.write_backs << ", last acknowledgement " << none.last_ack << " -> " << largest.last_ack
                      << ", a slice's port busy " << slice_bound << " cycles");
  CHECK(double(largest.last_ack) >= slice_bound);
  CHECK(double(largest.last_ack) < 1.2 * slice_bound + h100.l2.hit_latency);
  CHECK(double(none.last_ack) < 0.75 * slice_bound);
  // A set-aside of one byte takes a whole way (the driver grants ways): entry 1, 0 cycles on the
  // H100, as are 2 and 3 (the stream stays at DRAM's pace there).
  CHECK(store_stream(h100, 1).last_ack == none.last_ack);
  CHECK(store_stream(h100, 3 * way).last_ack == none.last_ack);
  // Without the table the largest set-aside costs nothing: the mechanism is this parameter.
  Arch without = h100;
  without.l2.set_aside_write_back_cycles.clear();
  CHECK(store_stream(without, h100.l2.persist_max_bytes).last_ack == none.last_ack);
  // Ways past the list take its last entry.
  Arch short_list = h100;
  short_list.l2.set_aside_write_back_cycles = {0, cycles.back()};
  CHECK(store_stream(short_list, 5 * way).last_ack == largest.last_ack);
}

TEST_CASE("l2.set_aside_write_back_cycles: numbers of cycles, or an error naming the entry", "[memory][l2][arch]") {
  const auto spec_with = [](const std::string& value) {
    sim::Config c(arch_params());
    c.load_ini(preset_file("hopper-h100"));
    c.set_assignment("l2.set_aside_write_back_cycles=" + value, "--set");
    c.validate();
    return L2Spec::from_config(c);
  };
  CHECK(spec_with("").set_aside_write_back_cycles.empty());
  CHECK(spec_with("0 1.5  2").set_aside_write_back_cycles == std::vector<double>{0, 1.5, 2});
  REQUIRE_THROWS_AS(spec_with("0 fast"), sim::InputError);
  REQUIRE_THROWS_WITH(spec_with("0 fast"), Catch::Contains("l2.set_aside_write_back_cycles") &&
                                               Catch::Contains("entry 2 ('fast')"));
  REQUIRE_THROWS_WITH(spec_with("-1"), Catch::Contains("entry 1 ('-1')"));
}

namespace {

// The store stream above under the largest set-aside, with an L2 hit to each slice between every
// 64 stores: the longest any hit waited past the hit latency, and the last acknowledgement.
struct HitsBeside {
  sim::Cycle longest_wait = 0, last_ack = 0;
};
HitsBeside hits_beside_stores(const Arch& arch) {
  sim::StatsRegistry stats;
  BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
  L2Cache l2(arch.l2, arch.gpu.core_clock_khz, dram, stats);
  l2.set_set_aside(arch.l2.persist_max_bytes);
  // One resident line a slice, homed near partition 0.
  std::vector<std::uint64_t> resident;
  std::vector<bool> found(arch.l2.slices, false);
  for (std::uint64_t line = 0; resident.size() < arch.l2.slices / arch.l2.partitions && line < 100000; ++line) {
    const std::uint32_t s = l2.slice_of(line);
    if (found[s] || s / (arch.l2.slices / arch.l2.partitions) != 0) continue;
    found[s] = true;
    resident.push_back(line * 128);
  }
  bool hit = false;
  for (std::uint64_t a : resident) l2.read(a, 0, L2Hint::Default, 0, hit);
  HitsBeside h;
  sim::Cycle now = 1000;
  for (std::uint64_t line = 0; line < (32u << 20) / 128; ++line) {
    const std::uint64_t address = (std::uint64_t{1} << 32) + line * 128;
    h.last_ack = std::max(h.last_ack, l2.write_sectors(address, 0xF, 0, now, L2Hint::Default, 0));
    if (line % 64 == 63) {
      for (std::uint64_t a : resident) {
        const sim::Cycle ready = l2.read(a, now, L2Hint::Default, 0, hit);
        REQUIRE(hit);
        h.longest_wait = std::max(h.longest_wait, ready - now - arch.l2.hit_latency);
      }
      now += 64;  // the stores come at about the pace the slices take them
    }
  }
  return h;
}

}  // namespace

TEST_CASE("l2.set_aside_write_back_batch: the set-aside's cost paid a batch at a time stalls the slice, hits too",
          "[memory][l2]") {
  // h200/slice_stalls.csv: under a set-aside, L2 hits where the write-backs go wait up to ~2,700
  // cycles, in episodes; one write-back at a time (the presets' batch of 1) they wait a few tens.
  const Arch h100 = load_arch("hopper-h100");
  REQUIRE(h100.l2.set_aside_write_back_batch == 1);
  const double cost = h100.l2.set_aside_write_back_cycles.back();
  const HitsBeside one = hits_beside_stores(h100);
  Arch batched = h100;
  batched.l2.set_aside_write_back_batch = 128;
  const HitsBeside many = hits_beside_stores(batched);
  INFO("longest hit wait: batch 1 " << one.longest_wait << ", batch 128 " << many.longest_wait << " cycles; last ack "
                                    << one.last_ack << " / " << many.last_ack);
  CHECK(double(one.longest_wait) < 10 * cost);
  CHECK(double(many.longest_wait) > 0.9 * 128 * cost);
  // The same cost in all: the stream ends within a batch's stall of batch 1's.
  CHECK(double(many.last_ack) < double(one.last_ack) + 2 * 128 * cost);
  CHECK(double(many.last_ack) > 0.9 * double(one.last_ack));
}
