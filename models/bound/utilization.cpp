#include "models/bound/utilization.hpp"

#include <algorithm>

namespace warpsim::models {
namespace {

double ratio(double served, double capacity) { return capacity > 0 ? served / capacity : 0.0; }

// Warp instructions a class accepts per cycle per SM, as the SM's unit pools grant them: a pool
// per scheduler where each sub-partition owns its units (Hopper), else one per SM, each with at
// least one lane (models/core/sm.cpp).
double pipe_rate(const Arch& arch, int unit) {
  const std::uint32_t groups = arch.sm.units_per_scheduler ? arch.sm.schedulers : 1;
  return double(groups) * std::max(1u, arch.units.lanes[unit] / groups) / 32.0;
}

// The LSU moves one 128-byte line a pass (memory_system.cpp): that many of the L1's sectors.
double l1_sectors_per_cycle(const Arch& arch) {
  return arch.l1.sector_bytes ? std::max(1.0, 128.0 / arch.l1.sector_bytes) : 1.0;
}

}  // namespace

std::string_view resource_name(Resource r) {
  switch (r) {
    case Resource::Issue: return "issue";
    case Resource::PipeInt: return "int";
    case Resource::PipeFp32: return "fp32";
    case Resource::PipeFp64: return "fp64";
    case Resource::PipeSfu: return "sfu";
    case Resource::PipeLdSt: return "ldst";
    case Resource::PipeTensor: return "tensor";
    case Resource::PipeControl: return "control";
    case Resource::L1Wavefronts: return "l1_wavefronts";
    case Resource::L1Sectors: return "l1_sectors";
    case Resource::Shared: return "shared";
    case Resource::L2: return "l2";
    case Resource::Dram: return "dram";
  }
  return "?";
}

Resource pipe_of(traces::Unit unit) {
  return static_cast<Resource>(static_cast<int>(Resource::PipeInt) + static_cast<int>(unit));
}

Utilization utilization(const Arch& arch, const GpuTotals& t, const MemoryCounters& m) {
  Utilization u;
  auto set = [&](Resource r, double v) { u.of[static_cast<int>(r)] = v; };
  const double sm_cycles = double(t.cycles) * arch.gpu.sms;
  set(Resource::Issue, ratio(double(t.issue_events), sm_cycles * arch.sm.schedulers));
  for (int unit = 0; unit < traces::kUnitCount; ++unit)
    set(pipe_of(traces::Unit(unit)), ratio(double(t.pipe_slots[unit]), sm_cycles * pipe_rate(arch, unit)));
  set(Resource::L1Wavefronts, ratio(double(m.l1_wavefronts), sm_cycles));
  set(Resource::L1Sectors, ratio(double(m.l1_sector_lookups), sm_cycles * l1_sectors_per_cycle(arch)));
  set(Resource::Shared, ratio(double(m.shared_wavefronts), sm_cycles));
  // Every lookup Nsight Compute counts in lts__t_sectors (a forwarded request's second one and each
  // launch's own included, l2_cache.hpp) against the slices' tag rate at the L2's clock: the same
  // peak as lts__t_sectors.avg.pct_of_peak_sustained_elapsed.
  const double l2_clock = arch.l2.clock_khz ? double(arch.l2.clock_khz) : double(arch.gpu.core_clock_khz);
  const double slice_lookups_per_cycle = arch.l2.lookups_per_cycle * l2_clock / double(arch.gpu.core_clock_khz);
  set(Resource::L2, ratio(double(m.l2_sector_lookups), double(t.cycles) * arch.l2.slices * slice_lookups_per_cycle));
  const double seconds = double(t.cycles) / (double(arch.gpu.core_clock_khz) * 1e3);
  set(Resource::Dram, ratio(double(m.dram_read_bytes + m.dram_write_bytes), arch.dram.bytes_per_second() * seconds));
  return u;
}

double peak_issue_per_second(const Arch& arch) {
  return double(arch.gpu.sms) * arch.sm.schedulers * std::max(1u, arch.sm.dispatch_per_scheduler) * double(arch.gpu.core_clock_khz) *
         1e3;
}

}  // namespace warpsim::models
