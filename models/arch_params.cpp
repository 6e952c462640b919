// The parameter table of an architecture preset: every key a preset file must give.
#include "models/arch.hpp"
#include "models/memory/dram_models.hpp"
#include "models/memory/replacement_policies.hpp"
#include "sim/param_builders.hpp"

namespace warpsim::models {
namespace {

using sim::ParamSpec;
using namespace sim::param;

std::vector<ParamSpec> build() {
  return {
      integer("l2.size_bytes", "bytes", "L2 cache, whole GPU", 1024, 1 << 30),
      integer("l2.line_bytes", "bytes", "L2 line size", 32, 1024),
      integer("l2.sector_bytes", "bytes", "L2 sector size", 32, 1024),
      integer("l2.ways", "ways", "L2 associativity", 1, 1024),
      integer("l2.slices", "slices", "L2 slices the address space is interleaved over", 1, 1024),
      integer("l2.hit_latency", "cycles", "L2 hit latency seen by an SM", 1, 10000),
      choice("l2.replacement", memory::ReplacementPolicies::names(),
             "replacement in each L2 set: " + memory::ReplacementPolicies::summary()),
      integer("l2.bytes_per_cycle_per_slice", "bytes/cycle", "L2 slice bandwidth", 1, 4096),
      integer("l2.clock_khz", "kHz", "clock of the L2 slices (their lookup rate counts in its cycles)", 1000, 1e8),
      integer("l2.lookups_per_cycle", "sectors", "tag lookups a slice makes per L2 cycle", 1, 1024),
      integer("l2.partitions", "partitions",
              "L2 halves (or more) the slices are split into; an SM's request for a line whose home is another "
              "partition is looked up in its own partition first (a copy), then forwarded", 1, 64),
      integer("l2.far_latency", "cycles", "extra round trip of a request forwarded to another partition", 0, 100000),
      text("l2.sm_partitions",
           "the partition each SM is near, one digit per SM in SM order, repeated for SMs past the list (empty: all in 0)"),
      integer("l2.launch_lookups", "sectors",
              "L2 sector lookups every launch makes besides its memory instructions (its closing memory barrier, "
              "instruction and constant fetches), as Nsight Compute counts them", 0, 1e12),
      integer("l2.launch_lookup_hits", "sectors", "of l2.launch_lookups, the hits", 0, 1e12),
      integer("l2.dirty_lines_per_set", "lines",
              "dirty normal/streaming lines a set keeps; a store past it writes the oldest back (0: no limit)", 0,
              1024),
      flag("l2.fill_partial_writes",
           "a store to part of a sector not in L2 fetches the sector from DRAM first (DRAM ECC on)"),
      flag("l2.persistence", "CUDA L2 persistence controls are available (S4, cc >= 8.0)"),
      integer("l2.persist_max_bytes", "bytes", "persistingL2CacheMaxSize: largest set-aside (S4.1, S4.7)", 0),
      integer("l2.max_window_bytes", "bytes", "accessPolicyMaxWindowSize (S4.2, S4.7)", 0),
      choice("dram.model", memory::DramModels::names(), memory::DramModels::summary()),
      integer("dram.bus_width_bits", "bits", "memory bus width", 8, 65536),
      integer("dram.data_rate_mtps", "MT/s", "transfers per second per pin", 1, 100000),
      integer("dram.latency_min", "cycles", "DRAM access latency, unloaded, lowest (S2.7)", 1, 100000),
      integer("dram.latency_max", "cycles", "DRAM access latency, unloaded, highest (S2.7)", 1, 100000),
      integer("dram.channels", "channels", "independent DRAM channels", 1, 1024),
      integer("dram.banks", "banks", "banks per channel", 1, 1024),
      integer("dram.refresh_interval_ns", "ns", "tREFI: a channel refreshes once per this interval", 1, 1e9),
      integer("dram.refresh_ns", "ns", "tRFC: how long a refresh blocks the channel", 0, 1e6),
      integer("dram.turnaround_ns", "ns", "data-bus turnaround between writes and reads (tWTR + tRTW class)", 0, 1e6),
      integer("dram.write_batch", "bursts", "writes the controller drains per read/write turnaround pair", 1, 1e6),
  };
}

}  // namespace

const std::vector<sim::ParamSpec>& arch_params() {
  // The components' keys first, in preset order, then those not yet beside their component.
  static const std::vector<sim::ParamSpec> specs = [] {
    std::vector<sim::ParamSpec> all;
    for (const auto& part : {GpuSpec::params(), SmSpec::params(), UnitsSpec::params(), DispatchSpec::params(),
                              memory::L1Spec::params(), build()}) all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return specs;
}

}  // namespace warpsim::models
