// What a refresh holds (dram.refresh_holds_bus) and what a bank's turn to another 256-byte unit
// costs (dram.unit_turn_ps), on one channel of hopper-h100's DRAM so that every request meets the
// same bus.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

Arch one_channel(std::vector<std::string> settings) {
  settings.insert(settings.end(), {"dram.channels=1", "dram.bus_width_bits=64", "dram.refresh_groups=1"});
  return load_arch("hopper-h100", settings);
}

double cycles_per_ns(const Arch& a) { return static_cast<double>(a.gpu.core_clock_khz) * 1e-6; }

// 64-byte reads `spacing` bytes apart, all asked for at cycle 0: when the last one's data is back.
sim::Cycle last_of_pieces(const Arch& arch, std::uint64_t pieces, std::uint64_t spacing) {
  memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
  sim::Cycle last = 0;
  for (std::uint64_t i = 0; i < pieces; ++i) last = std::max(last, dram.read(i * spacing, 64, 0));
  return last;
}

}  // namespace

TEST_CASE("DRAM: a refresh that holds only the banks still delays a lone read, not a stream",
          "[memory][dram]") {
  for (const bool holds_bus : {true, false}) {
    const Arch arch = one_channel({std::string("dram.refresh_holds_bus=") + (holds_bus ? "true" : "false"),
                                   "dram.unit_turn_ps=0"});
    const double per_ns = cycles_per_ns(arch);
    const sim::Cycle window = static_cast<sim::Cycle>(arch.dram.refresh_interval_ns * per_ns);
    const sim::Cycle blocked = static_cast<sim::Cycle>(arch.dram.refresh_ns * per_ns);
    INFO("refresh_holds_bus " << holds_bus);
    // A lone read at the start of the second refresh waits for its end either way.
    memory::BankedDram lone(arch.dram, arch.gpu.core_clock_khz, 1);
    const sim::Cycle ready = lone.read(0, 64, window + 1);
    CHECK(ready >= window + blocked + arch.dram.latency_min - 1);
    CHECK(ready <= window + blocked + arch.dram.latency_max + 2);

    // A stream of ten refresh intervals' bytes: holding the bus, it loses the refreshes' time;
    // holding the banks, the other banks keep the bus busy and it takes its bytes' time.
    const double burst_ns = 64.0 / arch.dram.bytes_per_second() * 1e9;
    const std::uint64_t pieces = static_cast<std::uint64_t>(10 * arch.dram.refresh_interval_ns / burst_ns);
    const double bytes_cycles = pieces * burst_ns * per_ns;
    const double refresh_cycles = 10.0 * blocked;
    const double last = double(last_of_pieces(arch, pieces, 64));
    if (holds_bus) {
      CHECK(last >= bytes_cycles + 0.9 * refresh_cycles + arch.dram.latency_min);
    } else {
      CHECK(last <= bytes_cycles + 0.1 * refresh_cycles + arch.dram.latency_max);
      CHECK(last >= 0.995 * bytes_cycles + arch.dram.latency_min);  // bursts are whole fixed-point ticks
    }
  }
}

TEST_CASE("DRAM: a bank's turn to another 256-byte unit costs dram.unit_turn_ps of bus time",
          "[memory][dram]") {
  // 64-byte pieces 64 B apart visit a unit for every four pieces, 256 B apart one for each: with
  // a turn of T ns, 4,096 pieces take 1,024 x T and 4,096 x T beyond their bursts. Without a
  // turn both take their bursts' time (rows open for 8 units a bank keep the banks out of it).
  const std::uint64_t pieces = 4096;
  for (const std::uint32_t turn_ps : {0u, 750u, 1500u}) {
    const Arch arch = one_channel({"dram.refresh_holds_bus=false", "dram.unit_turn_ps=" + std::to_string(turn_ps)});
    const double per_ns = cycles_per_ns(arch);
    const double turn = turn_ps * 1e-3 * per_ns;
    const double bursts = pieces * 64.0 / arch.dram.bytes_per_second() * 1e9 * per_ns;
    INFO("unit_turn_ps " << turn_ps);
    const double latency = (arch.dram.latency_min + arch.dram.latency_max) / 2.0;
    const double dense = double(last_of_pieces(arch, pieces, 64)) - latency;
    const double sparse = double(last_of_pieces(arch, pieces, 256)) - latency;
    CHECK(dense == Approx(bursts + pieces / 4 * turn).margin(0.01 * bursts));
    CHECK(sparse == Approx(bursts + pieces * turn).margin(0.01 * bursts));
  }
}
