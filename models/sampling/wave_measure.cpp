#include "models/sampling/wave_measure.hpp"

#include <algorithm>

#include "models/sampling/count_math.hpp"

namespace warpsim::models::sampling {

WaveMeasure::WaveMeasure(const memory::L2Spec& l2, std::uint64_t wave_blocks, WarmRule warm, SteadyRule steady)
    : wave_(wave_blocks),
      l2_bytes_(l2.size_bytes),
      sector_bytes_(l2.sector_bytes),
      warm_rule_(warm),
      steady_rule_(steady),
      steady_(steady) {}

bool WaveMeasure::warm_after(const Reading& before, const Reading& now) const {
  const MemoryCounters& m = now.totals.memory;
  const MemoryCounters w = sim::counts_since(m, before.totals.memory);
  const bool turned_over = (m.l2_sector_lookups - m.l2_sector_hits) * sector_bytes_ >= l2_bytes_;
  const bool resident = w.l2_sector_lookups == w.l2_sector_hits;
  const double stored = double(w.gst_sectors * sector_bytes_);
  const bool draining = stored > 0 && double(w.dram_write_bytes) >= warm_rule_.drain_share * stored;
  return turned_over || resident || draining;
}

double half_spread(const std::vector<sim::Cycle>& cycles, sim::Cycle window, std::uint32_t min_blocks) {
  if (cycles.size() < std::max<std::size_t>(2, min_blocks) || window == 0) return 0.5;
  const std::size_t half = (cycles.size() + 1) / 2;
  sim::Cycle shortest = cycles.back() - cycles.front();
  for (std::size_t i = 0; i + half <= cycles.size(); ++i) shortest = std::min(shortest, cycles[i + half - 1] - cycles[i]);
  return double(shortest) / double(window);
}

void WaveMeasure::add(const LaunchTotals& totals, std::uint64_t retired, sim::Cycle at) {
  readings_.push_back({totals, retired});
  next_boundary_ = retired - retired % wave_ + wave_;
  const sim::Cycle window = at - last_reading_cycle_;
  last_reading_cycle_ = at;
  const std::size_t n = readings_.size();
  if (n < 2) return;
  if (!out_of_step_)
    out_of_step_ = half_spread(retire_cycles_, window, warm_rule_.spread_min_blocks) >= warm_rule_.spread_share;
  retire_cycles_.clear();
  const Reading& before = readings_[n - 2];
  const Reading& now = readings_[n - 1];
  if (warm_) {
    if (n - 1 <= warm_reading_ + warm_rule_.settle_waves) return;
    steady_.add({now.totals.gpu.cycles - before.totals.gpu.cycles, now.retired - before.retired,
                 now.totals.gpu.warp_instructions - before.totals.gpu.warp_instructions});
  } else if (n - 1 >= warm_rule_.min_waves && out_of_step_ && warm_after(before, now)) {
    warm_ = true;
    warm_reading_ = n - 1;
  }
}

void WaveMeasure::restart(const LaunchTotals& totals, std::uint64_t retired, sim::Cycle at) {
  readings_.assign(1, {totals, retired});
  last_reading_cycle_ = at;
  retired_told_ = retired;
  next_boundary_ = retired - retired % wave_ + wave_;
  steady_ = SteadyState(steady_rule_);
  warm_reading_ = 0;
}

std::string WaveMeasure::describe() const {
  if (!warm_ && !out_of_step_)
    return "its blocks never left the launch's lockstep (half of a wave's retirements within a quarter of it)";
  if (!warm_) return "the caches never warmed (the L2 neither turned over nor drained its dirty data)";
  return steady_.describe();
}

Credit WaveMeasure::credit(std::uint64_t blocks) const {
  const Reading& last = readings_.back();
  const Reading& first = readings_[readings_.size() - 1 - steady_.windows()];
  const std::uint64_t span = last.retired - first.retired;
  Credit c;
  c.gpu = scaled(sim::counts_since(last.totals.gpu, first.totals.gpu), blocks, span);
  c.memory = scaled(sim::counts_since(last.totals.memory, first.totals.memory), blocks, span);
  c.cycles = c.gpu.cycles;
  // Two standard errors of the rate, and a wave's time for the seam where the blocks before the
  // skip meet those after it: kernels whose speed depends on which blocks run together (a
  // transpose's writes, spread over DRAM channels by block) run the mixed wave faster or slower,
  // by up to a wave's time (a K20X transpose of 37 waves: -3.8%).
  const double wave_cycles = double(wave_) / steady_.rate();
  c.error_cycles = 2.0 * double(c.cycles) * steady_.rate_error() + wave_cycles;
  return c;
}

}  // namespace warpsim::models::sampling
