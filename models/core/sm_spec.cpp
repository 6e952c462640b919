#include "models/core/sm_spec.hpp"

#include <string>

#include "models/core/issue_policies.hpp"
#include "sim/errors.hpp"
#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models {

std::vector<sim::ParamSpec> SmSpec::params() {
  using namespace sim::param;
  return {
      integer("sm.max_threads", "threads", "resident threads per SM (S1.1)", 32),
      integer("sm.max_warps", "warps", "resident warps per SM (S1.1)", 1),
      integer("sm.max_blocks", "blocks", "resident thread blocks per SM (S1.1)", 1),
      integer("sm.max_threads_per_block", "threads", "largest block a launch may use", 32, 4096),
      integer("sm.registers", "registers", "32-bit registers per SM", 1024),
      integer("sm.max_registers_per_thread", "registers", "most registers one thread may use", 16, 255),
      integer("sm.register_alloc_unit", "registers", "registers are allocated per warp in multiples of this", 1),
      integer("sm.register_block_warp_granularity", "warps",
              "a block's register allocation is rounded up to this many warps (Fermi: 2)", 1, 64),
      integer("sm.shared_bytes", "bytes", "shared memory per SM available to blocks", 0),
      integer("sm.max_shared_per_block", "bytes", "largest shared allocation of one block", 0),
      integer("sm.shared_alloc_unit", "bytes", "shared memory is allocated per block in multiples of this", 1),
      integer("sm.shared_reserved_per_block", "bytes", "shared memory the system reserves per block (cc >= 8.0)", 0),
      integer("sm.schedulers", "schedulers", "warp schedulers per SM (S1.4)", 1, kMaxSchedulers),
      integer("sm.dispatch_per_scheduler", "instructions", "dispatch units per scheduler: 2 allows dual issue (S2.3)", 1, 2),
      integer("sm.max_warps_per_scheduler", "warps", "warps one scheduler holds (S1.4)", 1),
      choice("sm.scheduler_policy", IssuePolicies::names(), IssuePolicies::summary()),
      flag("sm.fp64_blocks_dual_issue", "a DP instruction cannot share its cycle with another of its warp (S2.4)"),
      flag("sm.units_per_scheduler", "execution units belong to one scheduler's sub-partition instead of the SM"),
  };
}

SmSpec SmSpec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  SmSpec s;
  s.max_threads = read.u32("sm.max_threads");
  s.max_warps = read.u32("sm.max_warps");
  s.max_blocks = read.u32("sm.max_blocks");
  s.max_threads_per_block = read.u32("sm.max_threads_per_block");
  s.registers = read.u32("sm.registers");
  s.max_registers_per_thread = read.u32("sm.max_registers_per_thread");
  s.register_alloc_unit = read.u32("sm.register_alloc_unit");
  s.register_block_warp_granularity = read.u32("sm.register_block_warp_granularity");
  s.shared_bytes = read.u32("sm.shared_bytes");
  s.max_shared_per_block = read.u32("sm.max_shared_per_block");
  s.shared_alloc_unit = read.u32("sm.shared_alloc_unit");
  s.shared_reserved_per_block = read.u32("sm.shared_reserved_per_block");
  s.schedulers = read.u32("sm.schedulers");
  s.dispatch_per_scheduler = read.u32("sm.dispatch_per_scheduler");
  s.max_warps_per_scheduler = read.u32("sm.max_warps_per_scheduler");
  s.scheduler_policy = read.choice<IssuePolicies>("sm.scheduler_policy");
  s.fp64_blocks_dual_issue = read.flag("sm.fp64_blocks_dual_issue");
  s.units_per_scheduler = read.flag("sm.units_per_scheduler");

  read.require(s.max_warps * 32 >= s.max_threads, "sm.max_warps", {"sm.max_threads"},
               "fewer warps than sm.max_threads needs");
  read.require(s.schedulers * s.max_warps_per_scheduler >= s.max_warps, "sm.max_warps_per_scheduler",
               {"sm.schedulers", "sm.max_warps"}, "schedulers cannot hold sm.max_warps");
  // The range of sm.schedulers keeps it within kMaxSchedulers; the warps each one holds:
  if ((s.max_warps + s.schedulers - 1) / s.schedulers > kMaxWarpsPerScheduler)
    throw sim::InputError(config.setting("sm.max_warps").origin,
                          "at most " + std::to_string(kMaxWarpsPerScheduler) +
                              " warps per scheduler are supported (sm.max_warps / sm.schedulers)");
  return s;
}

}  // namespace warpsim::models
