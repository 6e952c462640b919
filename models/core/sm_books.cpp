// Sm: its construction with the counters it registers, and its books at the end of a run (the
// warp-cycles still open, what it waits for when the run cannot finish).
#include <algorithm>
#include <sstream>

#include "models/core/sm.hpp"

namespace warpsim::models {
namespace {
constexpr int kUnits = traces::kUnitCount;
}  // namespace

Sm::Sm(sim::Engine& engine, sim::TickGroup& ticks, sim::ClockDomain clock, const SmSpec& spec, const UnitsSpec& units,
       const DispatchSpec& dispatch, std::uint32_t id, MemorySystem& memory, AccessLog& log,
       BlockRetireListener& listener, sim::StatsRegistry& stats, sim::ZeroPagesArena& warp_slots_arena)
    : sim::ClockedComponent(engine, ticks, clock, "gpu.sm" + std::to_string(id)),
      spec_(spec),
      units_(units),
      dispatch_(dispatch),
      id_(id),
      memory_(memory),
      log_(log),
      ticks_(ticks),
      listener_(listener),
      buffer_depth_(spec.dispatch_per_scheduler > 1 ? 2 : 1),
      issue_due_(issue_due_for(spec.scheduler_policy)),
      per_scheduler_((spec.max_warps + spec.schedulers - 1) / spec.schedulers),
      width_(scheduler_width(spec)),
      warps_(warp_slot_count(spec), warp_slots_arena),
      sched_(spec.schedulers),
      ready_at_(std::size_t(width_) * spec.schedulers, kNeverStamp),
      barrier_ready_at_(ready_at_.size(), kNeverStamp),
      head_unit_(ready_at_.size(), traces::Unit::Int),
      age_(ready_at_.size()),
      blocks_(spec.max_blocks),
      undecided_(spec.schedulers) {
  // SmSpec refused more schedulers, or more warps per scheduler, than the SM is built for.
  // S2.5: unit limits are SM-wide (Kepler) or per sub-partition (Hopper: each owns a quarter).
  const std::uint32_t groups = spec.units_per_scheduler ? spec.schedulers : 1;
  pools_.resize(std::size_t(groups) * kUnits);
  for (std::uint32_t g = 0; g < groups; ++g)
    for (int u = 0; u < kUnits; ++u) pools_[g * kUnits + u].configure(std::max(1u, units.lanes[u] / groups));

  const std::string p = path() + ".";
  stats.add(p + "warp_instructions", counters_.instructions, "instructions", "warp instructions issued");
  stats.add(p + "active_lanes", counters_.active_lanes, "lanes", "lanes active in issued warp instructions");
  stats.add(p + "dual_issues", counters_.dual_issues, "cycles", "scheduler-cycles that issued two instructions");
  stats.add(p + "issue_cycles", counters_.issue_events, "cycles", "scheduler-cycles that issued");
  stats.add(p + "active_cycles", counters_.active_cycles, "cycles", "cycles with a resident warp");
  stats.add(p + "warp_cycles", counters_.warp_cycles, "warp-cycles", "active warps (from their start to their block's last exit) summed over cycles");
  stats.add(p + "blocks", counters_.blocks, "blocks", "thread blocks completed");
  for (int s = 1; s < kSchedulerStateCount; ++s)
    stats.add(p + std::string(state_metric(SchedulerState(s))), counters_.state_cycles[s], "cycles",
              "scheduler-cycles without issue, by reason");
  for (int u = 0; u < kUnits; ++u)
    stats.add(p + "pipe_slots." + std::string(traces::unit_name(traces::Unit(u))), counters_.pipe_slots[u], "slots",
              "issue slots this execution-unit class gave, replays included");
}

std::uint32_t Sm::scheduler_width(const SmSpec& spec) {
  const std::uint32_t per_scheduler = (spec.max_warps + spec.schedulers - 1) / spec.schedulers;
  return (per_scheduler + 3) / 4 * 4;
}

std::size_t Sm::warp_slot_count(const SmSpec& spec) { return std::size_t(scheduler_width(spec)) * spec.schedulers; }

void Sm::finish(sim::Cycle end) {
  change_resident_warps(0, end);
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s)
    for (std::uint64_t active = sched_[s].active; active != 0; active &= active - 1) {
      const Warp& w = warps_[slot_of(s, static_cast<std::uint32_t>(__builtin_ctzll(active)))];
      charge(w.kernel_slot);
      if (end > w.started) counters_.warp_cycles += end - w.started;
    }
  counters_.warp_cycles += exited_warp_cycles(end);
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) set_state(s, sched_[s].state, end);
}

std::uint64_t Sm::live_warp_cycles(sim::Cycle at) const {
  std::uint64_t cycles = 0;
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s)
    for (std::uint64_t active = sched_[s].active; active != 0; active &= active - 1) {
      const Warp& w = warps_[slot_of(s, static_cast<std::uint32_t>(__builtin_ctzll(active)))];
      if (at > w.started) cycles += at - w.started;
    }
  return cycles + exited_warp_cycles(at);
}

std::uint64_t Sm::exited_warp_cycles(sim::Cycle at) const {
  std::uint64_t cycles = 0;
  if (!dispatch_.warps_counted_to_block_end) return 0;  // counted at their exits
  for (const Block& block : blocks_)
    if (block.active && block.warps_finished < block.warps_total)
      cycles += std::uint64_t{block.warps_finished} * at - block.exited_warp_starts;
  return cycles;
}

void Sm::close_books(sim::Cycle at) {
  change_resident_warps(0, at);
  // A scheduler whose state waits for a window's answers (Undecided) keeps its cycles until
  // settle() decides them; between launches none does.
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s)
    if (!sched_[s].undecided) set_state(s, sched_[s].state, at);
}

std::string Sm::waiting_for() const {
  int barrier = 0, memory = 0, other = 0;
  for (std::uint32_t slot = 0; slot < warps_.size(); ++slot) {
    const std::uint32_t s = slot / width_, i = slot % width_;
    if ((sched_[s].active >> i & 1u) == 0) continue;
    const Warp& w = warps_[slot];
    if (is_at_barrier(s, i))
      ++barrier;
    else if (w.count > 0 && w.scoreboard.blocked_by_memory(w.front()))
      ++memory;
    else
      ++other;
  }
  std::ostringstream out;
  out << resident_warps_ << " resident warps (" << barrier << " at a barrier, " << memory << " on memory, " << other
      << " other)";
  if (!retire_queue_.empty()) out << ", " << retire_queue_.size() << " finished blocks waiting for their stores";
  if (!arrivals_.empty()) out << ", " << arrivals_.size() << " dispatched blocks not started";
  return out.str();
}

}  // namespace warpsim::models
