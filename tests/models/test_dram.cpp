// DRAM bandwidth and latency, and the load-to-use latency of each level against the H100's
// pointer chase (calibration/h100/latency.csv).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/rng.hpp"
#include "sim/stats.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

traces::Instruction load_instruction(traces::CacheOp cache = traces::CacheOp::Default) {
  traces::Instruction inst;
  inst.unit = traces::Unit::LdSt;
  inst.space = traces::MemSpace::Global;
  inst.mem_op = traces::MemOp::Load;
  inst.cache_op = cache;
  inst.width = 4;
  return inst;
}

double cycles_per_second(const Arch& a) { return static_cast<double>(a.gpu.core_clock_khz) * 1e3; }
// Read bandwidth a channel sustains on a stream of 64-byte reads: the pins' rate, less the share of
// time refresh blocks the bus where it does (dram.refresh_holds_bus), less a bank's turn to the
// next 256-byte unit once every four reads (dram.unit_turn_ps).
double sustained_read_bandwidth(const Arch& a) {
  const double refresh_share = a.dram.refresh_holds_bus ? double(a.dram.refresh_ns) / a.dram.refresh_interval_ns : 0;
  const double burst_ns = 64.0 / (a.dram.bytes_per_second() / a.dram.channels) * 1e9;
  const double turn_ns = a.dram.unit_turn_ps * 1e-3 / 4;
  return a.dram.bytes_per_second() * (1.0 - refresh_share) * burst_ns / (burst_ns + turn_ns);
}

}  // namespace

TEST_CASE("DRAM: a long stream of sector reads takes bytes / bandwidth", "[memory][dram]") {
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    const Arch arch = load_arch(preset);
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    const std::uint64_t bytes = 64ull << 20;
    sim::Cycle last = 0;
    for (std::uint64_t a = 0; a < bytes; a += 64) last = std::max(last, dram.read(a, 64, 0));
    // Everything was requested at cycle 0: the last datum arrives after bytes / bandwidth plus one
    // unloaded latency, at the bandwidth a stream sustains. Tolerance 2% (the bus is reserved in whole
    // fixed-point ticks, refresh windows are whole).
    const double expected = bytes / sustained_read_bandwidth(arch) * cycles_per_second(arch);
    INFO(preset << ": " << last << " cycles, expected " << expected << " + latency");
    CHECK(double(last) == Approx(expected + arch.dram.latency_min).epsilon(0.02));
    CHECK(dram.bytes_read() == bytes);
  }
}

TEST_CASE("DRAM: a streaming kernel through access() runs at DRAM bandwidth", "[memory][dram]") {
  // 64 MB of coalesced 128-byte warp loads from all 132 SMs, 16 issued per cycle (2 KB/cycle,
  // more than the 1693 B/cycle HBM3 delivers), so DRAM is the bottleneck: H100 5120 bit x
  // 5238 MT/s = 3.35 TB/s, less what a stream sustains of it (sustained_read_bandwidth).
  // Tolerance 5% (includes one latency and the start-up).
  const Arch arch = load_arch("hopper-h100");
  sim::StatsRegistry stats;
  auto mem = make_memory_system(memory_system_specs(arch), stats, 1);
  mem->begin_kernel(0, traces::KernelInfo{});
  traces::Instruction inst = load_instruction();
  const std::uint64_t bytes = 64ull << 20;
  sim::Cycle last = 0;
  std::uint64_t k = 0;
  for (std::uint64_t line = 0; line < bytes; line += 128, ++k) {
    for (int l = 0; l < 32; ++l) inst.addr[static_cast<std::size_t>(l)] = line + 4u * l;
    last = std::max(last, mem->access(static_cast<std::uint32_t>(k % arch.gpu.sms), 0, inst, k / 16).ready);
  }
  const double seconds = last / cycles_per_second(arch);
  const double tb_per_s = bytes / seconds / 1e12;
  std::printf("stream 64 MB through access(): %llu cycles = %.2f us, %.3f TB/s (peak %.3f)\n",
              static_cast<unsigned long long>(last), seconds * 1e6, tb_per_s, arch.dram.bytes_per_second() / 1e12);
  CHECK(tb_per_s == Approx(sustained_read_bandwidth(arch) / 1e12).epsilon(0.05));
  CHECK(mem->counters().dram_read_bytes == bytes);
}

TEST_CASE("DRAM: unloaded latency stays within the preset's range", "[memory][dram]") {
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    // Refresh off: an access that meets a refresh waits, which is load, not latency.
    const Arch arch = load_arch(preset, {"dram.refresh_ns=0"});
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 5);
    sim::Rng rng(5, "test");
    sim::Cycle now = 0;
    double sum = 0;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t address = rng.between(0, (1ull << 34) - 1) & ~63ull;
      const sim::Cycle latency = dram.read(address, 64, now) - now;
      INFO(preset << " access " << i);
      REQUIRE(latency >= arch.dram.latency_min);
      REQUIRE(latency <= arch.dram.latency_max);
      sum += double(latency);
      now += 10000;  // unloaded: every bank idle again
    }
    // Random rows miss: the mean is the middle of the range, within 2%.
    CHECK(sum / n == Approx((arch.dram.latency_min + arch.dram.latency_max) / 2.0).epsilon(0.02));
  }
}

TEST_CASE("DRAM: a read of the row just opened waits for the bank's burst, not for a row cycle", "[memory][dram]") {
  // tRC (~48 ns, BankedDram::kRowCycleNs) is the least time between two activations of a bank;
  // a column access to the row an activation opened needs no new activation. Two sectors of one
  // 256-byte chunk share channel, bank and row: the second, asked for in the same cycle, starts
  // after the first's burst and answers at the open-row latency. (Waiting a row cycle, as the
  // model once did, puts it 95 cycles later on the H100 and orders such pairs by issue alone.)
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    const Arch arch = load_arch(preset, {"dram.refresh_ns=0"});
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 7);
    const sim::Cycle burst = static_cast<sim::Cycle>(std::ceil(32 / dram.bytes_per_cycle() * dram.channels()));
    const sim::Cycle first = dram.read(1 << 20, 32, 1000);
    const sim::Cycle second = dram.read((1 << 20) + 32, 32, 1000);
    INFO(preset << ": first " << first << ", second " << second << ", burst " << burst);
    CHECK(first >= 1000 + arch.dram.latency_min);
    CHECK(second <= 1000 + burst + 1 + arch.dram.latency_min);
    const sim::Cycle row_cycle = static_cast<sim::Cycle>(memory::BankedDram::kRowCycleNs * 1e-9 * cycles_per_second(arch));
    CHECK(second < 1000 + row_cycle + arch.dram.latency_min);
  }
}

TEST_CASE("DRAM: a read that finds its row open in an idle bank answers as if the row were closed", "[memory][dram]") {
  // The H100 answers a cold line no sooner once a read of its row is back
  // (h100-measured/row_pairs_near.csv.xz: median 0 cycles sooner over 4,096 pairs): only a read
  // queued behind its row's previous request answers at dram.latency_min (the test above).
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    const Arch arch = load_arch(preset, {"dram.refresh_ns=0"});
    const std::uint64_t a = 1 << 20, b = a + 128;  // one 256-byte chunk: one channel, bank and row
    memory::BankedDram alone(arch.dram, arch.gpu.core_clock_khz, 7);
    const sim::Cycle b_alone = alone.read(b, 32, 5000) - 5000;
    memory::BankedDram paired(arch.dram, arch.gpu.core_clock_khz, 7);
    const sim::Cycle a_back = paired.read(a, 32, 1000);
    const sim::Cycle b_after_a = paired.read(b, 32, a_back) - a_back;
    INFO(preset << ": B alone " << b_alone << ", B after A " << b_after_a);
    // B's own latency is above the minimum, so an open row answering at it would show.
    REQUIRE(b_alone > arch.dram.latency_min);
    CHECK(b_after_a == b_alone);
  }
}

TEST_CASE("latency.csv: a pointer chase sees L1, L2 and DRAM latencies within 5%", "[memory][dram]") {
  // chase<<<1,1>>> in kernels.cu: one lane, p = next[p], over a random cyclic permutation of
  // 128-byte lines; each load issues when the previous returns plus the 4-cycle address IMAD.
  const Arch arch = load_arch("hopper-h100");
  std::ifstream csv(test::shared_path("calibration/h100/latency.csv"));
  REQUIRE(csv.good());
  std::string line;
  std::getline(csv, line);
  int levels = 0;
  while (std::getline(csv, line)) {
    const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
    const std::uint64_t kb = std::stoull(line.substr(0, c1));
    const double measured = std::stod(line.substr(c1 + 1, c2 - c1 - 1));
    const std::string level = line.substr(c2 + 1);
    sim::StatsRegistry stats;
    auto mem = make_memory_system(memory_system_specs(arch), stats, 11);
    mem->begin_kernel(0, traces::KernelInfo{});
    const std::uint64_t base = 1ull << 32, lines = kb * 1024 / 128;
    sim::Rng rng(11, "chase");
    std::vector<std::uint64_t> order;
    const bool cold = level == "DRAM";
    const int steps = 20000;
    if (cold) {  // 1 GB: 20000 random lines, practically never the same one twice
      for (int i = 0; i < steps; ++i) order.push_back(rng.between(0, lines - 1));
    } else {
      order.resize(lines);
      std::iota(order.begin(), order.end(), 0);
      for (std::uint64_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng.between(0, i)]);
    }
    traces::Instruction inst = load_instruction();
    inst.active_mask = 1;
    sim::Cycle now = 0;
    auto step = [&](std::uint64_t i) {
      inst.addr[0] = base + order[i % order.size()] * 128;
      const sim::Cycle ready = mem->access(0, 0, inst, now).ready;
      const sim::Cycle took = ready - now + 4;  // + the IMAD that computes the next address
      now = ready + 4;
      return took;
    };
    if (!cold)
      for (std::uint64_t i = 0; i < lines; ++i) step(i);  // warm the level under test
    double total = 0;
    for (int i = 0; i < steps; ++i) total += double(step(static_cast<std::uint64_t>(i) + lines / 2));
    const double per_load = total / steps;
    std::printf("chase %8llu KB (%s): model %.1f cycles per dependent load, H100 %.1f\n",
                static_cast<unsigned long long>(kb), level.c_str(), per_load, measured);
    INFO(level << " " << kb << " KB");
    CHECK(per_load == Approx(measured).epsilon(0.05));
    ++levels;
  }
  CHECK(levels == 4);
}

TEST_CASE("DRAM: refresh blocks a channel for tRFC every tREFI; writes pay their turnaround share", "[memory][dram]") {
  const Arch arch = load_arch("hopper-h100", {"dram.channels=1", "dram.refresh_groups=1"});
  const double cycles_per_ns = cycles_per_second(arch) / 1e9;
  // Channel 0 refreshes at [k x tREFI, k x tREFI + tRFC): a read issued at the start of the
  // second window waits until it ends, then sees the unloaded latency of an open or closed row.
  memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
  const sim::Cycle window = static_cast<sim::Cycle>(arch.dram.refresh_interval_ns * cycles_per_ns);
  const sim::Cycle blocked = static_cast<sim::Cycle>(arch.dram.refresh_ns * cycles_per_ns);
  const sim::Cycle ready = dram.read(0, 64, window + 1);
  CHECK(ready >= window + blocked + arch.dram.latency_min - 1);
  CHECK(ready <= window + blocked + arch.dram.latency_max + 2);

  // Writes: burst plus 2 x turnaround / write_batch each, so a write stream takes longer than a
  // read stream of the same bytes by that share (1.53 ns bursts per 64 bytes on each of 80
  // channels, and a unit's turn every four). 64 MB keeps one DRAM latency under 2% of either stream.
  const Arch full = load_arch("hopper-h100");
  memory::BankedDram reads(full.dram, full.gpu.core_clock_khz, 1), writes(full.dram, full.gpu.core_clock_khz, 1);
  const std::uint64_t bytes = 64ull << 20;
  sim::Cycle read_end = 0;
  for (std::uint64_t a = 0; a < bytes; a += 64) read_end = std::max(read_end, reads.read(a, 64, 0));
  for (std::uint64_t a = 0; a < bytes; a += 64) writes.write(a, 64, 0);
  const sim::Cycle write_end = writes.read(0, 64, 0);  // a read queued behind its channel's writes
  const double burst_ns = 64.0 / (full.dram.bytes_per_second() / full.dram.channels) * 1e9;
  const double share = 2.0 * full.dram.turnaround_ns / full.dram.write_batch;
  const double turn_ns = full.dram.unit_turn_ps * 1e-3 / 4;
  CHECK(double(write_end) / double(read_end) ==
        Approx((burst_ns + turn_ns + share) / (burst_ns + turn_ns)).epsilon(0.03));
}

TEST_CASE("DRAM: writes queued while a refresh holds the reads take the refresh's bus time", "[memory][dram]") {
  // One of the H100's 80 channels alone, its reads queued at cycle 0 for 2.5 us of bus time: they
  // wait out the refresh the channel starts with (tRFC) and end before the next. Writes queued at
  // cycle 0 behind them drain in that refresh's bus time, for nothing, as long as it lasts: a read
  // queued after them answers when it would without them. Each write past what the refresh leaves
  // takes the bus as before, its burst and its turnaround share.
  const Arch arch = load_arch("hopper-h100", {"dram.channels=1", "dram.bus_width_bits=64", "dram.refresh_groups=1",
                                              "dram.refresh_holds_bus=true", "dram.unit_turn_ps=0"});
  const double cycles_per_ns = cycles_per_second(arch) / 1e9;
  const double burst_cycles = 64.0 / arch.dram.bytes_per_second() * cycles_per_second(arch);
  const double share_cycles = 2.0 * arch.dram.turnaround_ns / arch.dram.write_batch * cycles_per_ns;
  const double refresh_cycles = arch.dram.refresh_ns * cycles_per_ns;
  const std::uint64_t stream_bytes = static_cast<std::uint64_t>(2.5e-6 * arch.dram.bytes_per_second()) / 64 * 64;
  // The writes below end before the next refresh.
  REQUIRE(2500 + arch.dram.refresh_ns + 700 < arch.dram.refresh_interval_ns);
  auto last_read_after = [&](int writes) {
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    for (std::uint64_t a = 0; a < stream_bytes; a += 64) dram.read(a, 64, 0);
    for (int w = 0; w < writes; ++w) dram.write((1ull << 30) + std::uint64_t(w) * 64, 64, 0);
    return dram.read(2ull << 30, 64, 0);
  };
  const sim::Cycle alone = last_read_after(0);
  const int fit = static_cast<int>(refresh_cycles / burst_cycles);  // 228
  REQUIRE(fit > 100);
  CHECK(last_read_after(64) == alone);
  CHECK(last_read_after(fit - 1) == alone);
  // 300 writes past the refresh's time (~0.6 us): each costs its burst and its turnaround share.
  const int past = 300, more = fit + 1 + past;
  const double extra = double(last_read_after(more)) - double(alone);
  const double expected = past * (burst_cycles + share_cycles);
  CHECK(extra >= 0.9 * expected);
  CHECK(extra <= 1.1 * expected);

  // Without dram.writes_in_refresh (Fermi and Kepler, unmeasured) every write takes the bus.
  const Arch without = load_arch("hopper-h100", {"dram.channels=1", "dram.bus_width_bits=64", "dram.refresh_groups=1",
                                                 "dram.refresh_holds_bus=true", "dram.unit_turn_ps=0",
                                                 "dram.writes_in_refresh=false"});
  memory::BankedDram dram(without.dram, without.gpu.core_clock_khz, 1);
  for (std::uint64_t a = 0; a < stream_bytes; a += 64) dram.read(a, 64, 0);
  for (int w = 0; w < 64; ++w) dram.write((1ull << 30) + std::uint64_t(w) * 64, 64, 0);
  CHECK(double(dram.read(2ull << 30, 64, 0)) - double(alone) >= 0.9 * 64 * (burst_cycles + share_cycles));
  CHECK(load_arch("hopper-h100").dram.writes_in_refresh);
  CHECK_FALSE(load_arch("kepler-k20x").dram.writes_in_refresh);
}

TEST_CASE("DRAM: channels refresh in groups, a group's channels together", "[memory][dram]") {
  // One read on each of hopper-h100's 80 channels (80 consecutive 256-byte chunks: the interleave
  // puts them on every channel once) at the moment the first group's refresh begins. In five
  // groups of 16 (hopper-h100, h100-measured/refresh_gather.csv.xz) exactly that group's 16 reads
  // wait for it, for the whole tRFC; with every channel at a phase of its own, the 7 channels
  // whose refresh began less than tRFC before (phases 48.75 ns apart) wait, each for what is left.
  auto waiting = [](std::uint32_t groups, sim::Cycle& longest) {
    const Arch arch = load_arch("hopper-h100", {"dram.refresh_groups=" + std::to_string(groups)});
    memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    const double cycles_per_ns = cycles_per_second(arch) / 1e9;
    const sim::Cycle start = static_cast<sim::Cycle>(arch.dram.refresh_interval_ns * cycles_per_ns) + 1;
    int waited = 0;
    longest = 0;
    for (std::uint64_t chunk = 0; chunk < 80; ++chunk) {
      const sim::Cycle wait = dram.read(chunk * 256, 64, start) - start;
      if (wait > arch.dram.latency_max + 2) {
        ++waited;
        longest = std::max(longest, wait - arch.dram.latency_max);
      }
    }
    return waited;
  };
  const Arch h100 = load_arch("hopper-h100");
  const sim::Cycle trfc = static_cast<sim::Cycle>(h100.dram.refresh_ns * cycles_per_second(h100) / 1e9);
  sim::Cycle longest = 0;
  CHECK(h100.dram.refresh_groups == 5);
  CHECK(waiting(5, longest) == 16);
  CHECK(longest >= trfc - 2);
  CHECK(waiting(80, longest) == 7);
  CHECK(waiting(1, longest) == 80);
}
