#include "models/memory/dram_spec.hpp"

#include "models/memory/dram_models.hpp"
#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models::memory {

std::vector<sim::ParamSpec> DramSpec::params() {
  using namespace sim::param;
  return {
      choice("dram.model", DramModels::names(), DramModels::summary()),
      integer("dram.bus_width_bits", "bits", "memory bus width", 8, 65536),
      integer("dram.data_rate_mtps", "MT/s", "transfers per second per pin", 1, 100000),
      integer("dram.latency_min", "cycles", "DRAM access latency, unloaded, lowest (S2.7)", 1, 100000),
      integer("dram.latency_max", "cycles", "DRAM access latency, unloaded, highest (S2.7)", 1, 100000),
      integer("dram.channels", "channels", "independent DRAM channels", 1, 1024),
      integer("dram.banks", "banks", "banks per channel", 1, 1024),
      integer("dram.refresh_interval_ns", "ns", "tREFI: a channel refreshes once per this interval", 1, 1e9),
      integer("dram.refresh_ns", "ns", "tRFC: how long a refresh blocks the channel", 0, 1e6),
      integer("dram.refresh_groups", "groups",
              "the channels refresh in this many groups of neighbours, a group's channels together, each group "
              "at a phase of its own (dram.channels: every channel at its own)",
              1, 1024),
      integer("dram.turnaround_ns", "ns", "data-bus turnaround between writes and reads (tWTR + tRTW class)", 0, 1e6),
      integer("dram.write_batch", "bursts",
              "with dram.write_queue 0: each write pays two turnarounds spread over this many bursts", 1, 1e6),
      integer("dram.write_queue", "bursts",
              "writes a channel queues behind its reads before it turns its bus to drain them, each turn costing "
              "dram.turnaround_ns (0: no queue, every write pays its share of dram.write_batch's turnarounds; "
              "at most 4096, 128 KB a channel, which no controller holds)",
              0, 4096),
      flag("dram.writes_in_refresh",
           "writes queued while the reads leave a channel's bus idle (a refresh, a unit's turn) drain in that "
           "time, at no cost"),
      flag("dram.refresh_holds_bus",
           "a refresh holds its channel's data bus (true) or only its banks, other requests keeping the bus (false)"),
      integer("dram.unit_turn_ps", "ps",
              "bus time a bank takes to turn to a 256-byte unit other than the one it served last (0: none)", 0,
              1e6),
  };
}

DramSpec DramSpec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  DramSpec s;
  s.model = read.choice<DramModels>("dram.model");
  s.bus_width_bits = read.u32("dram.bus_width_bits");
  s.data_rate_mtps = read.u32("dram.data_rate_mtps");
  s.latency_min = read.u32("dram.latency_min");
  s.latency_max = read.u32("dram.latency_max");
  s.channels = read.u32("dram.channels");
  s.banks = read.u32("dram.banks");
  s.refresh_interval_ns = read.u32("dram.refresh_interval_ns");
  s.refresh_ns = read.u32("dram.refresh_ns");
  s.refresh_groups = read.u32("dram.refresh_groups");
  s.turnaround_ns = read.u32("dram.turnaround_ns");
  s.write_batch = read.u32("dram.write_batch");
  s.writes_in_refresh = read.flag("dram.writes_in_refresh");
  s.refresh_holds_bus = read.flag("dram.refresh_holds_bus");
  s.unit_turn_ps = read.u32("dram.unit_turn_ps");
  s.write_queue = read.u32("dram.write_queue");

  read.require(s.latency_min <= s.latency_max, "dram.latency_min", {"dram.latency_max"}, "exceeds dram.latency_max");
  read.require(s.refresh_ns < s.refresh_interval_ns, "dram.refresh_ns", {"dram.refresh_interval_ns"},
               "must be shorter than dram.refresh_interval_ns");
  read.require(s.refresh_groups <= s.channels, "dram.refresh_groups", {"dram.channels"}, "exceeds dram.channels");
  return s;
}

}  // namespace warpsim::models::memory
