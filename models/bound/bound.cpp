#include "models/bound/bound.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace warpsim::models {
namespace {

double share(std::uint64_t part, std::uint64_t whole) { return whole ? double(part) / double(whole) : 0.0; }

double state_share(const GpuTotals& t, SchedulerState s, bool books) {
  return books ? share(t.state_cycles[static_cast<int>(s)], t.scheduler_cycles)
               : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LaunchShape launch_shape(const Arch& arch, const traces::KernelInfo& kernel, std::uint64_t start_cycles) {
  LaunchShape s;
  s.theoretical = compute_occupancy(
      arch.sm,
      BlockResources{static_cast<std::uint32_t>(kernel.threads_per_block()), kernel.registers_per_thread,
                     kernel.shared_bytes_per_block},
      arch.preset);
  s.blocks = kernel.grid.count();
  s.start_cycles = start_cycles;
  return s;
}

Bound launch_bound(const Arch& arch, const GpuTotals& t, const MemoryCounters& m, const LaunchShape& shape,
                   bool cycle_books) {
  BoundInputs in;
  in.use = utilization(arch, t, m);
  in.cycles = t.cycles;
  in.start_cycles = shape.start_cycles;
  in.cycles_per_us = double(arch.gpu.core_clock_khz) / 1e3;
  in.idle = state_share(t, SchedulerState::Idle, cycle_books);
  in.barrier = state_share(t, SchedulerState::Barrier, cycle_books);
  in.memory_wait = state_share(t, SchedulerState::MemoryDependency, cycle_books);
  in.alu_wait = state_share(t, SchedulerState::AluDependency, cycle_books);
  in.issued = state_share(t, SchedulerState::Issued, cycle_books);
  in.achieved_occupancy = cycle_books ? share(t.warp_cycles, t.active_cycles * arch.sm.max_warps)
                                      : std::numeric_limits<double>::quiet_NaN();
  in.theoretical = shape.theoretical;
  in.blocks = shape.blocks;
  in.sms = arch.gpu.sms;
  in.load_efficiency = m.gld_bytes_moved ? share(m.gld_bytes_requested, m.gld_bytes_moved) : 1.0;
  in.store_efficiency = m.gst_bytes_moved ? share(m.gst_bytes_requested, m.gst_bytes_moved) : 1.0;
  in.shared_conflict_share = share(m.shared_bank_conflicts, m.shared_wavefronts);
  in.replay_share = share(m.replays, m.l1_wavefronts + m.shared_wavefronts);
  in.dram_bytes_per_second = arch.dram.bytes_per_second();
  in.l2_slices = arch.l2.slices;
  return Bound{in.use, shape.theoretical, waves(shape.theoretical, shape.blocks, arch.gpu.sms), judge(in)};
}

Bound run_bound(const Arch& arch, const GpuTotals& t, const MemoryCounters& m, const std::vector<Bound>& launches,
                const std::vector<std::uint64_t>& launch_cycles) {
  if (launches.size() == 1) {
    Bound b = launches[0];
    b.use = utilization(arch, t, m);
    return b;
  }
  Bound b;
  b.use = utilization(arch, t, m);
  if (launches.empty()) return b;
  std::array<std::uint64_t, kLimiterCount> cycles{};
  std::array<std::size_t, kLimiterCount> count{};
  std::size_t longest = 0;
  std::uint64_t all = 0;
  for (std::size_t k = 0; k < launches.size(); ++k) {
    const int l = static_cast<int>(launches[k].verdict.limiter);
    cycles[l] += launch_cycles[k];
    ++count[l];
    all += launch_cycles[k];
    if (launch_cycles[k] > launch_cycles[longest]) longest = k;
  }
  const auto most = static_cast<int>(std::max_element(cycles.begin(), cycles.end()) - cycles.begin());
  b.theoretical = launches[longest].theoretical;
  b.waves = launches[longest].waves;
  b.verdict.limiter = Limiter(most);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu of %zu launches, %.0f%% of their time", count[most], launches.size(),
                100 * share(cycles[most], all));
  b.verdict.evidence = buf;
  b.verdict.sentence = std::string(buf) + "; the longest launch: " +
                       std::string(limiter_name(launches[longest].verdict.limiter)) + " (" +
                       launches[longest].verdict.sentence + ")";
  return b;
}

}  // namespace warpsim::models
