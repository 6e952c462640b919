#include "models/core/dispatch_spec.hpp"

#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models {

std::vector<sim::ParamSpec> DispatchSpec::params() {
  using namespace sim::param;
  return {
      integer("dispatch.launch_overhead_ns", "ns",
              "host-side launch and event overhead around a kernel's GPU time (event timings; not simulated)", 0, 1e9),
      integer("dispatch.kernel_start_ns", "ns",
              "GPU-side time from a kernel's start to its first block dispatch, part of the kernel's time", 0, 1e9),
      integer("dispatch.block_interval_cycles", "cycles", "GigaThread engine: cycles between two block dispatches GPU-wide", 1, 1e6),
      integer("dispatch.block_start_latency_cycles", "cycles", "block dispatch to its warps being schedulable", 0, 1e6),
      integer("dispatch.warp_launch_interval_cycles", "cycles",
              "an SM starts a block's warps one after another, this many cycles apart", 0, 1e6),
      integer("dispatch.block_retire_cycles", "cycles",
              "a block's last warp exit to its SM reporting it done (its stores acknowledged too)", 0, 1e6),
      flag("dispatch.block_waits_for_stores",
           "a finished block keeps its SM's resources until its loads are back and its stores acknowledged, "
           "not only block_retire_cycles after its last warp exits"),
      flag("dispatch.warps_counted_to_block_end",
           "achieved occupancy counts a warp until its block's last warp exits (off: until its own exit)"),
      integer("dispatch.first_wave_block_interval_cycles", "cycles",
              "when a kernel starts, blocks are placed on every SM at once, this many cycles apart on one SM "
              "(0: the first blocks go out one per block_interval_cycles GPU-wide, as later ones do)",
              0, 1e6),
      real("dispatch.retire_interval_cycles", "cycles",
           "the GigaThread engine takes in one finished block per this many cycles GPU-wide (0: no limit)", 0, 1e6),
      integer("dispatch.first_wave_sm_interval_cycles", "cycles",
              "when a kernel starts, the first blocks of consecutive SMs start this many cycles apart", 0, 1e6),
  };
}

DispatchSpec DispatchSpec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  DispatchSpec s;
  s.launch_overhead_ns = read.u64("dispatch.launch_overhead_ns");
  s.kernel_start_ns = read.u64("dispatch.kernel_start_ns");
  s.block_interval_cycles = read.u32("dispatch.block_interval_cycles");
  s.block_start_latency_cycles = read.u32("dispatch.block_start_latency_cycles");
  s.warp_launch_interval_cycles = read.u32("dispatch.warp_launch_interval_cycles");
  s.block_retire_cycles = read.u32("dispatch.block_retire_cycles");
  s.block_waits_for_stores = read.flag("dispatch.block_waits_for_stores");
  s.warps_counted_to_block_end = read.flag("dispatch.warps_counted_to_block_end");
  s.first_wave_block_interval_cycles = read.u32("dispatch.first_wave_block_interval_cycles");
  s.first_wave_sm_interval_cycles = read.u32("dispatch.first_wave_sm_interval_cycles");
  s.retire_interval_cycles = read.real("dispatch.retire_interval_cycles");
  return s;
}

}  // namespace warpsim::models
