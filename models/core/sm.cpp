// Sm: the schedulers' issue path, each cycle's tick and the window's settling. Blocks and barriers
// are sm_blocks.cpp; construction and the end-of-run books sm_books.cpp.
#include "models/core/sm.hpp"

#include <algorithm>
#include <cstddef>

namespace warpsim::models {

void Sm::change_resident_warps(int delta, sim::Cycle now) {
  if (now > occupancy_since_) {
    if (resident_warps_ > 0) counters_.active_cycles += now - occupancy_since_;
    occupancy_since_ = now;
  }
  resident_warps_ = static_cast<std::uint32_t>(static_cast<int>(resident_warps_) + delta);
}

void Sm::set_state(std::uint32_t s, SchedulerState state, sim::Cycle now) {
  Scheduler& sc = sched_[s];
  if (now > sc.state_since) {
    if (sc.undecided)
      closed_undecided_.push_back({s, now, undecided_[s]});  // its cycles get their state in settle()
    else
      counters_.state_cycles[static_cast<int>(sc.state)] += now - sc.state_since;
    sc.state_since = now;
  }
  sc.undecided = false;
  sc.state = state;
}

// Inlined into issue_from, its one caller (twice, for dual issue): out of line its call cost
// fmaChain 4% more host instructions.
[[gnu::always_inline]] inline void Sm::issue(Warp& w, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now) {
  const traces::Instruction& in = w.front();
  UnitPool& unit = pool(scheduler, in.unit);
  charge(w.kernel_slot);
  ++counters_.instructions;
  counters_.active_lanes += static_cast<std::uint64_t>(__builtin_popcount(in.active_mask));
  if (in.is_memory()) {
    MemoryAccessResult r{now + 1, 1};
    if (in.active_mask != 0 && memory_.shared_state(in)) {
      // Answered when the window closes (access_log.hpp); until then the window's end stands in
      // for the answer, which cannot come sooner (MemorySystem::min_latency).
      // The instruction is coalesced now, once: its passes are known at issue, and a contiguous
      // run of lanes travels as its byte range instead of 32 addresses.
      const CoalescedAccess c = memory_.coalesce(in);
      DeferredAccess& a = log_.add(now);
      a.take(in, c.range);
      a.sm = id_;
      a.kernel_slot = w.kernel_slot;
      a.warp_slot = slot_of(scheduler, index);
      a.block = w.block_slot;
      r = {ticks_.window_end(), c.passes};
      needs_settling_ = true;
    } else if (in.active_mask != 0) {
      r = memory_.access(id_, w.kernel_slot, in, now);
    }
    unit.consume(r.passes);
    counters_.pipe_slots[static_cast<int>(in.unit)] += r.passes;
    w.scoreboard.write(in, r.ready, true);
    Block& block = blocks_[w.block_slot];
    block.last_memory_ready = std::max(block.last_memory_ready, r.ready);
  } else {
    unit.consume(1);
    ++counters_.pipe_slots[static_cast<int>(in.unit)];
    w.scoreboard.write(in, now + units_.latency[static_cast<int>(in.unit)], false);
  }
  if (in.control == traces::Control::Barrier) {
    sched_[scheduler].at_barrier |= std::uint64_t{1} << index;
    w.pop();
    arrive_at_barrier(blocks_[w.block_slot], now);
    return;
  }
  w.pop();
}

void Sm::advance(Warp& w, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now, std::uint32_t branch_pc) {
  if (!w.fill(buffer_depth_)) {
    Block& block = blocks_[w.block_slot];
    retire_warp(scheduler, index, now);
    if (block.warps_finished == block.warps_total) block_exited(static_cast<std::uint32_t>(&block - blocks_.data()), now);
    return;
  }
  const Scoreboard::Readiness r = w.scoreboard.readiness(w.front());
  w.head_at = now;
  // After a taken branch (the next instruction is not the one after it: 8 or 16 bytes on, as the
  // ISA's instructions are long) the warp fetches at the target, and its head is there
  // latency.taken_branch after the branch issued (refresh_head keeps that floor).
  if (branch_pc != kNoBranch) {
    const std::uint32_t next = w.front().pc;
    if (next < branch_pc || next > branch_pc + 16) w.head_at = now + units_.taken_branch - 1;
  }
  w.released_at = kNever;
  set_head(scheduler, index, std::max(w.head_at + 1, r.ready), r.ready > w.head_at + 1, r.memory);
  head_unit_[slot_of(scheduler, index)] = w.front().unit;
}

bool Sm::try_dual_issue(Warp& w, std::uint32_t scheduler, std::uint32_t index, sim::Cycle now) {
  // S2.3/S2.4: the warp's next instruction issues in the same cycle if it is independent of the
  // first (the scoreboard already holds the first's destinations), its unit still has room, and
  // neither is a DP instruction when the preset forbids that pairing.
  if (w.count < 1 || is_at_barrier(scheduler, index)) return false;
  const traces::Instruction& next = w.front();
  if (next.control != traces::Control::None) return false;
  if (w.scoreboard.ready_cycle(next) > now) return false;
  if (!pool(scheduler, next.unit).can_issue(now)) return false;
  return true;
}

void Sm::set_head(std::uint32_t scheduler, std::uint32_t index, sim::Cycle ready, bool operands_pending,
                  bool waits_on_memory) {
  Scheduler& m = sched_[scheduler];
  const std::uint64_t b = std::uint64_t{1} << index;
  // A warp waiting at a barrier keeps its head's stamp aside until the release (sm.hpp).
  const std::uint32_t slot = slot_of(scheduler, index);
  const Stamp stamp = stamps_.of(ready);
  if (m.at_barrier & b) {
    barrier_ready_at_[slot] = stamp;
    ready_at_[slot] = kNeverStamp;
  } else {
    ready_at_[slot] = stamp;
  }
  m.operands_pending = operands_pending ? m.operands_pending | b : m.operands_pending & ~b;
  m.waits_on_memory = waits_on_memory ? m.waits_on_memory | b : m.waits_on_memory & ~b;
}

SchedulerState Sm::stall_reason(std::uint32_t s, const Earliest& c) const {
  const Scheduler& m = sched_[s];
  if (m.active == 0) return SchedulerState::Idle;
  if ((m.active & ~m.at_barrier) == 0) return SchedulerState::Barrier;
  return operand_stall(s, c);
}

SchedulerState Sm::operand_stall(std::uint32_t s, const Earliest& c) const {
  const Scheduler& m = sched_[s];
  if (c.ready == kNeverStamp) return SchedulerState::NoEligible;
  const std::uint64_t b = std::uint64_t{1} << c.index;
  // Held back by its launch or a barrier release, not an operand: nothing to blame.
  if (!(m.operands_pending & b)) return SchedulerState::NoEligible;
  return (m.waits_on_memory & b) ? SchedulerState::MemoryDependency : SchedulerState::AluDependency;
}

Sm::IssueDue Sm::issue_due_for(std::uint32_t policy) {
  return IssuePolicies::visit(policy, []<class Policy>(std::type_identity<Policy>) -> IssueDue { return &Sm::issue_due<Policy>; });
}

template <IssuePolicy Policy>
bool Sm::issue_due(std::uint32_t order, std::uint32_t first, sim::Cycle now) {
  const std::uint32_t n = spec_.schedulers;
  bool issued = false;
  for (std::uint32_t bits = order; bits != 0; bits &= bits - 1) {
    const std::uint32_t s = first + static_cast<std::uint32_t>(__builtin_ctz(bits));
    issued |= issue_from<Policy>(s >= n ? s - n : s, now);
  }
  return issued;
}

template <IssuePolicy Policy>
bool Sm::issue_from(std::uint32_t s, sim::Cycle now) {
  const std::uint32_t n = per_scheduler_;
  Scheduler& m = sched_[s];
  const Stamp* const ready = &ready_at_[std::size_t(s) * width_];
  const traces::Unit* const unit = &head_unit_[std::size_t(s) * width_];
  UnitPool* const units = pools_of(s);

  // S2.1: a warp may issue when its operands are ready, it is not waiting at a barrier, and the
  // unit its instruction needs has room this cycle. Only runnable warps hold a stamp, so the
  // look's `waiting` is the runnable warp whose operands land first.
  const Look look_now = look(ready, width_, stamps_.of(now));
  const std::uint64_t runnable = m.active & ~m.at_barrier;
  std::uint64_t eligible = runnable & look_now.ready;

  typename Policy::State& policy = std::get<typename Policy::State>(m.policy);
  const IssueChoice choice =
      Policy::choose(policy, IssueLook{eligible, unit, units, &age_[std::size_t(s) * width_], n, now});
  const std::uint32_t chosen = choice.warp;
  const bool unit_busy = choice.unit_busy;
  const sim::Cycle unit_free = choice.unit_free;  // when the first unit that turned an eligible warp away has room

  if (chosen == n) {
    // Nothing changes for this scheduler before a waiting warp's operands land or a unit that
    // turned a warp away has room again (units only fill up in between), so it sleeps till then.
    const Earliest c = look_now.waiting;
    if (!decided(s, c) && !(unit_busy && unit_free < ticks_.window_end())) {
      set_state(s, SchedulerState::NoEligible, now);  // a stand-in until settle() (Undecided)
      leave_undecided(s, unit_busy, unit_free, false, now, runnable & ~look_now.ready);
      return false;
    }
    m.recheck_at = unit_busy ? std::min(unit_free, cycle_of(c)) : cycle_of(c);
    set_state(s, unit_busy ? SchedulerState::UnitBusy : stall_reason(s, c), now);
    return false;
  }

  const bool another_eligible = (eligible & ~(std::uint64_t{1} << chosen)) != 0;
  const std::uint32_t slot = slot_of(s, chosen);
  Warp& w = warps_[slot];
  heads_changed_ = false;
  const bool first_is_fp64 = w.front().unit == traces::Unit::Fp64;
  const bool first_is_control = w.front().control != traces::Control::None;
  std::uint32_t branch_pc = branch_at(w.front());
  issue(w, s, chosen, now);
  ++counters_.issue_events;
  if (spec_.dispatch_per_scheduler > 1 && !first_is_control && (m.active >> chosen & 1u) &&
      !(spec_.fp64_blocks_dual_issue && (first_is_fp64 || (w.count > 0 && w.front().unit == traces::Unit::Fp64))) &&
      try_dual_issue(w, s, chosen, now)) {
    branch_pc = branch_at(w.front());
    issue(w, s, chosen, now);
    ++counters_.dual_issues;
  }
  advance(w, s, chosen, now, branch_pc);
  Policy::issued(policy, chosen, n);
  set_state(s, SchedulerState::Issued, now);
  // Next look: now + 1 if another warp could go; otherwise when the closest warp (this one
  // included) can, and the cycles until then are stalls whose reason is known now -- for a
  // policy that keeps the contract of issue_policy.hpp.
  if (another_eligible || unit_busy || !Policy::kSleepsAfterLoneIssue) {
    m.recheck_at = now + 1;
  } else {
    // The closest warp now: the look's waiting one or this warp's next instruction, unless the
    // issue released a barrier (or the warp's exit did), which moves other warps' stamps.
    Earliest c = look_now.waiting;
    if (heads_changed_) {
      c = closest(s, m.active & ~m.at_barrier);
    } else if (const Stamp mine = ready[chosen]; mine != kNeverStamp && (mine < c.ready || (mine == c.ready && chosen < c.index))) {
      c = {chosen, mine};
    }
    if (!decided(s, c)) {
      set_state(s, SchedulerState::Issued, now + 1);  // until settle() knows when the stall starts
      leave_undecided(s, false, kNever, true, now + 1, m.active & ~m.at_barrier);
      return true;
    }
    m.recheck_at = cycle_of(c);
    if (cycle_of(c) > now + 1) set_state(s, stall_reason(s, c), now + 1);
  }
  return true;
}

bool Sm::decided(std::uint32_t s, const Earliest& c) const {
  // Certain: a closest warp due inside the window (a stamp that awaits an answer lies at its end
  // or later), and a scheduler without runnable warps (no warp arrives inside a window).
  const Scheduler& m = sched_[s];
  return cycle_of(c) < ticks_.window_end() || (m.active & ~m.at_barrier) == 0;
}

void Sm::leave_undecided(std::uint32_t s, bool unit_busy, sim::Cycle unit_free, bool after_issue, sim::Cycle from,
                         std::uint64_t candidates) {
  undecided_[s] = {unit_busy, after_issue, from, unit_free, candidates};
  sched_[s].undecided = true;
  sched_[s].recheck_at = kNever;  // settle() sets it, unless a barrier release wakes it first
  needs_settling_ = true;
}

SchedulerState Sm::resolve(std::uint32_t s, const Undecided& u, const Earliest& c) const {
  if (u.unit_busy) return SchedulerState::UnitBusy;
  if (u.after_issue && cycle_of(c) <= u.from) return SchedulerState::Issued;  // no stall after all
  return operand_stall(s, c);  // it had runnable warps (decided()); they may have gone since
}

void Sm::answer(const DeferredAccess& a) {
  Warp& w = warps_[a.warp_slot];
  if (a.inst.dst_count > 0) {
    // No instruction of the warp wrote these registers since: it would have waited for them.
    w.scoreboard.write(a.inst, a.ready, true);
    if (!w.answered) answered_.push_back(a.warp_slot);
    w.answered = true;
  }
  Block& block = blocks_[a.block];
  // Without dispatch.block_waits_for_stores an exited block retires when block_exited said.
  if (dispatch_.block_waits_for_stores || block.warps_finished < block.warps_total)
    block.last_memory_ready = std::max(block.last_memory_ready, a.ready);
}

void Sm::record_load_data(const DeferredAccess& a) {
  if (a.inst.dst_count == 0) return;  // a store
  auto& data = load_data_[a.warp_slot];  // answers come in the order the loads issued (gpu.cpp)
  if (data[0] == WarpRecord::kNoData)
    data[0] = a.ready;
  else if (data[1] == WarpRecord::kNoData)
    data[1] = a.ready;
}

void Sm::refresh_head(Warp& w, std::uint32_t s, std::uint32_t i) {
  const Scoreboard::Readiness r = w.scoreboard.readiness(w.front());
  const sim::Cycle fetched = std::max(w.head_at + 1, r.ready);
  if (w.released_at == kNever || is_at_barrier(s, i))
    set_head(s, i, fetched, r.ready > w.head_at + 1, r.memory);  // set_head parks it at a barrier
  else
    set_head(s, i, std::max(fetched, w.released_at + 1), r.ready > w.released_at + 1, false);
}

void Sm::settle(sim::Cycle window_end) {
  needs_settling_ = false;
  for (const std::uint32_t slot : answered_) {
    Warp& w = warps_[slot];
    w.answered = false;
    const std::uint32_t s = slot / width_, i = slot % width_;
    if (sched_[s].active >> i & 1u) refresh_head(w, s, i);
  }
  answered_.clear();
  // The candidates' stamps are now what they were when each decision was put off (sm.hpp).
  for (const ClosedUndecided& d : closed_undecided_) {
    const Earliest c = closest(d.scheduler, d.what.candidates);
    counters_.state_cycles[static_cast<int>(resolve(d.scheduler, d.what, c))] += d.until - d.what.from;
  }
  closed_undecided_.clear();
  sim::Cycle next = kNever;
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) {
    const Undecided& u = undecided_[s];
    Scheduler& m = sched_[s];
    if (m.undecided) {
      const Earliest c = closest(s, u.candidates);
      // A block that arrived since may have asked for an earlier look (Sm::arrive).
      m.recheck_at = std::min(m.recheck_at, u.unit_busy ? std::min(u.unit_free, cycle_of(c)) : cycle_of(c));
      m.state = resolve(s, u, c);  // its interval began at u.from == m.state_since
      m.undecided = false;
    }
    next = std::min(next, m.recheck_at);
  }
  for (const std::uint32_t b : retire_queue_) next = std::min(next, std::max(window_end, blocks_[b].last_memory_ready));
  if (!arrivals_.empty()) next = std::min(next, std::max(window_end, blocks_[arrivals_.front()].start));
  if (next != kNever) wake_at(next);
}

void Sm::prefetch() const {
  // Called just before the SM ahead of this one ticks its window (sim/tick_group.hpp): the warps
  // that may issue in the window this SM ticks next -- those whose head is due before its end --
  // start loading now, a whole SM's window ahead of their first look. Per warp, the lines an
  // issue reads first: the buffer's state and head instruction (warp.hpp), the scoreboard's
  // epoch and first registers, and the stream whose next() the issue calls (inside the warp for
  // kernel-library streams, stream_slot.hpp). 132 SMs tick in turn, so the SM's state has
  // usually left the host's caches since its last window.
  const sim::Cycle end = ticks_.window_end();
  const Stamp last = stamps_.of(end - 1);
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) {
    for (std::uint32_t i = 0; i < per_scheduler_; ++i) {
      if (ready_at_[slot_of(s, i)] > last) continue;
      const Warp& w = warps_[slot_of(s, i)];
      __builtin_prefetch(&w);
      __builtin_prefetch(&w.scoreboard);                                       // epoch, written bits
      __builtin_prefetch(reinterpret_cast<const char*>(&w.scoreboard) + 64);   // P0-P7, R0-R7
      __builtin_prefetch(reinterpret_cast<const char*>(&w.scoreboard) + 128);  // R8-R23
      __builtin_prefetch(&w.stream);
      __builtin_prefetch(reinterpret_cast<const char*>(&w.stream) + 64);
    }
  }
  // What every scheduler's look reads besides its warps: its state, the head units and the unit
  // pools.
  for (std::uint32_t s = 0; s < spec_.schedulers; ++s) __builtin_prefetch(&sched_[s]);
  __builtin_prefetch(head_unit_.data());
  const char* pools = reinterpret_cast<const char*>(pools_.data());
  for (std::size_t offset = 0; offset < pools_.size() * sizeof(UnitPool); offset += 64)
    __builtin_prefetch(pools + offset);
}

bool Sm::tick(sim::Cycle now) {
  if (stamps_.needs_rebase(now)) stamps_.rebase(now, {&ready_at_, &barrier_ready_at_});
  while (!arrivals_.empty() && blocks_[arrivals_.front()].start <= now) {
    const std::uint32_t b = arrivals_.front();
    arrivals_.pop_front();
    arrive(b, now);
  }
  // A block whose warps have all exited gives its resources back once its memory operations have
  // completed, its stores acknowledged by L2. GPGPU-Sim and Accel-Sim do the same: a warp is done
  // when it has exited, its stores are acknowledged and nothing of it is in the pipeline
  // (shd_warp_t::hardware_done), and a block is released when all its warps are. Meanwhile its
  // warps count as inactive (they exited) but hold their slots. Evidence: the H100 keeps only
  // 70-73% of its warp slots active in readOffset at n = 2^26 (offset.csv) and 72.6% in
  // stridedRead at stride 1 (stride.csv), both bound by DRAM bandwidth; freeing a block at its
  // last EXIT gave 85% and 87%, this gives 78% and 74%, with the same times. A later probe
  // (store_acks.cu) finds the H100 taking the slot again ~450 cycles after the block's last warp
  // whatever its stores' acknowledgement; this stays with the occupancy rule it offsets
  // (SmCounters::warp_cycles).
  for (std::size_t q = 0; q < retire_queue_.size();) {
    const std::uint32_t b = retire_queue_[q];
    Block& block = blocks_[b];
    if (block.last_memory_ready > now) {
      ++q;  // the sleep below wakes the SM for it
      continue;
    }
    retire_queue_.erase(retire_queue_.begin() + static_cast<std::ptrdiff_t>(q));
    listener_.on_block_retired(id_, b, block.kernel_slot, now);
  }
  // The schedulers compete for SM-wide units (S2.5); which one asks first rotates every cycle,
  // or the last one would starve whenever the others can fill the units on their own.
  // The schedulers due now are found first, without a branch per scheduler (whether one is due
  // does not predict), then asked in that order. Deciding up front changes nothing: a scheduler's
  // issue only ever moves another's next look to now + 1 or later (a barrier release, recheck).
  // Every preset's count is a power of two, so the rotation's start needs no 64-bit division.
  bool issued = false;
  const std::uint32_t n = spec_.schedulers;
  std::uint32_t due = 0;
  for (std::uint32_t s = 0; s < n; ++s) due |= static_cast<std::uint32_t>(sched_[s].recheck_at <= now) << s;
  if (due != 0) {
    const std::uint32_t first = (n & (n - 1)) == 0 ? static_cast<std::uint32_t>(now & (n - 1))
                                                   : static_cast<std::uint32_t>(now % n);
    // Bit k of `order`: scheduler (first + k) % n is due.
    const std::uint32_t order = ((due >> first) | (due << (n - first))) & ((1u << n) - 1);
    issued = (this->*issue_due_)(order, first, now);
  }
  // Sleep until a scheduler could find something or a finished block's memory operations
  // complete: after an issue that is often not the next cycle (a lone warp waiting on its own
  // result), and a tick that finds nothing due costs as much as one that issues.
  sim::Cycle next = kNever;
  for (const Scheduler& scheduler : sched_) next = std::min(next, scheduler.recheck_at);
  for (const std::uint32_t b : retire_queue_) next = std::min(next, std::max(now + 1, blocks_[b].last_memory_ready));
  if (!arrivals_.empty()) next = std::min(next, std::max(now + 1, blocks_[arrivals_.front()].start));
  if (issued) {
    if (next == now + 1) return true;  // ticks again next cycle
    engine().note_progress();
  }
  if (next != kNever) wake_at(next);
  return false;
}

}  // namespace warpsim::models
