// dram.write_queue (banked_dram.hpp): a channel turns its bus round, dram.turnaround_ns each way,
// when its next burst goes the other way, and writes that come while reads hold the bus wait in a
// queue until the bus falls idle or the queue is full. One channel of hopper-h100's DRAM, no
// refresh in the way, so that every request meets the same bus.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

Arch one_channel(std::uint32_t queue) {
  return load_arch("hopper-h100", {"dram.channels=1", "dram.bus_width_bits=64", "dram.refresh_groups=1",
                                   "dram.refresh_ns=0", "dram.unit_turn_ps=0", "dram.writes_in_refresh=false",
                                   "dram.turnaround_ns=20", "dram.write_queue=" + std::to_string(queue)});
}

double cycles_per_ns(const Arch& a) { return static_cast<double>(a.gpu.core_clock_khz) * 1e-6; }
double burst_cycles(const Arch& a, std::uint32_t bytes) {
  return bytes / a.dram.bytes_per_second() * 1e9 * cycles_per_ns(a);
}

}  // namespace

TEST_CASE("DRAM write queue: a lone write-back turns an idle bus; the read behind it waits out the turn back",
          "[memory][dram]") {
  const Arch arch = one_channel(64);
  const double turn = arch.dram.turnaround_ns * cycles_per_ns(arch);
  // A read, then well after it a write (to another bank, at 2 KB): the bus turned while idle, the
  // write goes at once. A read right behind the write answers its burst and the turn back later
  // than the same read without the write.
  auto read_behind = [&](bool write) {
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    dram.read(0, 64, 0);
    if (write) CHECK(dram.write(2048, 64, 10000) == 10000);
    return double(dram.read(64, 64, 10000));
  };
  CHECK(read_behind(true) - read_behind(false) == Approx(turn + burst_cycles(arch, 64)).margin(1));
  // A write right behind a read is taken into the queue at once; it goes on the bus after the
  // read's burst and the turn the other way, and the DRAM is quiet after its burst.
  memory::BankedDram again(arch.dram, arch.gpu.core_clock_khz, 1);
  again.read(0, 64, 100);
  CHECK(again.write(1 << 20, 64, 100) == 100);
  CHECK(double(again.quiet_at()) >= 100 + 2 * burst_cycles(arch, 64) + turn - 1);

  // Writes that follow writes turn nothing: a line's four sectors take their bursts alone.
  memory::BankedDram lines(arch.dram, arch.gpu.core_clock_khz, 1);
  sim::Cycle last = 0;
  for (std::uint64_t s = 0; s < 4; ++s) last = lines.write(s * 32, 32, 0);
  CHECK(double(last) <= 3 * burst_cycles(arch, 32) + 1);
}

TEST_CASE("DRAM write queue: writes behind busy reads cost them nothing until the queue is full", "[memory][dram]") {
  const std::uint32_t queue = 32;
  const Arch arch = one_channel(queue);
  const double turn = arch.dram.turnaround_ns * cycles_per_ns(arch);
  // 1,000 reads asked for at cycle 0 keep the bus busy; writes asked for meanwhile queue behind
  // them. Fewer than the queue holds: the last read answers as without them. A full queue goes
  // on the bus at once: the reads after it wait for two turns and the writes' bursts.
  auto last_read = [&](int writes) {
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    for (std::uint64_t r = 0; r < 1000; ++r) dram.read(r * 64, 64, 0);
    for (int w = 0; w < writes; ++w) dram.write((1ull << 30) + std::uint64_t(w) * 64, 64, 1);
    return double(dram.read(1000 * 64, 64, 2));
  };
  const double alone = last_read(0);
  CHECK(last_read(int(queue) - 1) == alone);
  const double full = last_read(int(queue)) - alone;
  const double expected = 2 * turn + queue * burst_cycles(arch, 64);
  CHECK(full == Approx(expected).epsilon(0.02));

  // Without a queue every write pays its share of dram.write_batch's turnarounds, behind the
  // reads or not.
  Arch no_queue = one_channel(0);
  memory::BankedDram dram(no_queue.dram, no_queue.gpu.core_clock_khz, 1);
  for (std::uint64_t r = 0; r < 1000; ++r) dram.read(r * 64, 64, 0);
  const double before = double(dram.read(1000 * 64, 64, 2));
  memory::BankedDram with(no_queue.dram, no_queue.gpu.core_clock_khz, 1);
  for (std::uint64_t r = 0; r < 1000; ++r) with.read(r * 64, 64, 0);
  with.write(1ull << 30, 64, 1);
  CHECK(double(with.read(1000 * 64, 64, 2)) > before);
}

TEST_CASE("DRAM write queue: a write queued behind reads goes out when they leave the bus idle", "[memory][dram]") {
  const Arch arch = one_channel(64);
  const double turn = arch.dram.turnaround_ns * cycles_per_ns(arch);
  // Ten reads at cycle 0, a write behind them; a read long after the bus fell idle meets neither
  // the write nor a turn (the write went out when the reads ended, the bus turned back since): it
  // answers as it would without the write.
  auto late_read = [&](bool write) {
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    for (std::uint64_t r = 0; r < 10; ++r) dram.read(r * 64, 64, 0);
    if (write) CHECK(dram.write(1ull << 30, 64, 1) == 1);  // taken into the queue at once
    return dram.read(1ull << 31, 64, 20000);
  };
  CHECK(late_read(true) == late_read(false));
  // A read that comes just after the reads ended (cycle 40) finds the write on the bus: it went out
  // when the bus fell idle, after the turn to writes, and the read waits for it and the turn back.
  const double reads_end = 10 * burst_cycles(arch, 64);
  REQUIRE(reads_end < 40);
  auto early_read = [&](bool write) {
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    for (std::uint64_t r = 0; r < 10; ++r) dram.read(r * 64, 64, 0);
    if (write) dram.write(2048, 64, 1);  // bank 1
    return double(dram.read(3 * 2048, 64, 40));  // bank 3: no row cycle to wait for
  };
  CHECK(early_read(true) - early_read(false) ==
        Approx(reads_end + 2 * turn + burst_cycles(arch, 64) - 40).margin(2));
}

TEST_CASE("DRAM write queue: a queue past 4096 bursts is refused", "[memory][dram]") {
  // Each channel keeps its queued writes; a queue no controller holds would only hold memory.
  CHECK(load_arch("hopper-h200", {"dram.write_queue=4096"}).dram.write_queue == 4096);
  CHECK_THROWS_WITH(load_arch("hopper-h200", {"dram.write_queue=4097"}),
                    Catch::Contains("dram.write_queue") && Catch::Contains("[0, 4096]"));
}
