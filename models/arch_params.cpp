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
                              memory::L1Spec::params(), memory::L2Spec::params(), build()}) all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return specs;
}

}  // namespace warpsim::models
