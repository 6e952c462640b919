#include "sim/tick_group.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/clocked_component.hpp"

namespace warpsim::sim {

TickGroup::TickGroup(Engine& engine, ClockDomain clock, Cycle window, WindowListener* listener)
    : engine_(engine), clock_(clock), window_(window), listener_(listener), occupied_(kWheelCycles / 64, 0) {
  if (window < 1 || window > kMaxWindow)
    throw std::invalid_argument("a tick group's window must be 1 to " + std::to_string(kMaxWindow) + " cycles");
}

std::uint32_t TickGroup::join(ClockedComponent& member) {
  // Members are marked for the next cycle of the group's clock (ClockedComponent::group_tick).
  if (member.clock().period() != clock_.period())
    throw std::invalid_argument(member.path() + ": a tick group's members share its clock");
  members_.push_back(&member);
  words_ = (members_.size() + 63) / 64;
  wheel_.assign(kWheelCycles * words_, 0);
  in_window_.assign(words_, 0);
  deferred_.resize(members_.size());
  return static_cast<std::uint32_t>(members_.size() - 1);
}

void TickGroup::mark(std::uint32_t index, Cycle cycle) {
  if (deferring_) [[unlikely]] {
    defer(index, cycle);
    return;
  }
  // While a window is being ticked, a member woken inside it is due again in it.
  if (cycle - base_ < window_) in_window_[index / 64] |= std::uint64_t{1} << (index % 64);
  slot_words(cycle)[index / 64] |= std::uint64_t{1} << (index % 64);
  const Cycle slot = cycle & (kWheelCycles - 1);
  occupied_[slot / 64] |= std::uint64_t{1} << (slot % 64);
}

void TickGroup::place(std::uint32_t index, Cycle cycle) {
  if (cycle - base_ < kWheelCycles) {
    mark(index, cycle);
  } else {
    overflow_.emplace_back(cycle, index);
    overflow_first_ = std::min(overflow_first_, cycle);
  }
}

void TickGroup::request(std::uint32_t index, Time edge) {
  const Cycle cycle = clock_.cycle_at(edge);
  if (deferring_) [[unlikely]] {
    defer(index, cycle);
    return;  // the group is ticking: no event to schedule
  }
  place(index, cycle);
  if (!ticking_ && edge < scheduled_) {
    scheduled_ = edge;
    engine_.schedule(edge, *this, 0);
  }
}

void TickGroup::admit_overflow() {
  if (overflow_first_ - base_ >= kWheelCycles) return;
  Cycle first = std::numeric_limits<Cycle>::max();
  auto keep = overflow_.begin();
  for (const auto& [cycle, index] : overflow_) {
    if (cycle - base_ < kWheelCycles) {
      mark(index, cycle);
    } else {
      *keep++ = {cycle, index};
      first = std::min(first, cycle);
    }
  }
  overflow_.erase(keep, overflow_.end());
  overflow_first_ = first;
}

void TickGroup::schedule_next(Cycle after) {
  // The first occupied wheel slot after `after` (scanning the occupancy bits circularly), or the
  // first overflow request if that comes sooner.
  Cycle next = overflow_first_;
  const Cycle start = (after + 1) & (kWheelCycles - 1);
  for (Cycle scanned = 0; scanned < kWheelCycles;) {
    const Cycle slot = (start + scanned) & (kWheelCycles - 1);
    const std::uint64_t bits = occupied_[slot / 64] >> (slot % 64);
    if (bits != 0) {
      next = std::min(next, after + 1 + scanned + static_cast<Cycle>(__builtin_ctzll(bits)));
      break;
    }
    scanned += 64 - slot % 64;
  }
  if (next == std::numeric_limits<Cycle>::max()) return;
  scheduled_ = clock_.time_of(next);
  engine_.schedule(scheduled_, *this, 0);
}

void TickGroup::on_event(Time now, std::uint64_t) {
  if (now != scheduled_) return;  // superseded by an earlier request
  scheduled_ = kNone;
  base_ = clock_.cycle_at(now);
  admit_overflow();
  const Cycle end = base_ + window_;
  std::fill(in_window_.begin(), in_window_.end(), 0);
  for (Cycle cycle = base_; cycle < end; ++cycle)
    for (std::size_t w = 0; w < words_; ++w) in_window_[w] |= slot_words(cycle)[w];
  ticking_ = true;
  Time last_tick = now;
  if (workers_ != nullptr) last_tick = std::max(last_tick, tick_together(end));
  // Lowest member first, through all its due edges of the window. A member may wake another
  // inside the window: a later one is due when its turn comes; an earlier one is ticked next
  // (the lowest due member is always taken), after its last tick (ClockedComponent never ticks
  // an edge twice or goes back), so with a window of one cycle it ticks in the same edge, after
  // the member that woke it. Before a member ticks, the next one due is asked to prefetch.
  constexpr std::size_t kNoMember = ~std::size_t{0};
  auto lowest_due = [&]() {
    std::size_t w = 0;
    while (w < words_ && in_window_[w] == 0) ++w;
    return w == words_ ? kNoMember : w * 64 + static_cast<std::size_t>(__builtin_ctzll(in_window_[w]));
  };
  for (std::size_t index = lowest_due(); index != kNoMember; index = lowest_due()) {
    in_window_[index / 64] &= ~(std::uint64_t{1} << (index % 64));
    if (const std::size_t following = lowest_due(); following != kNoMember) members_[following]->prefetch();
    // From edge to edge the member asks for; marks it left behind in the window are stale and
    // go with the window's slots below.
    ClockedComponent& member = *members_[index];
    for (Cycle cycle = member.scheduled_cycle_; cycle < end; cycle = member.scheduled_cycle_) {
      const Time at = clock_.time_of(cycle);
      last_tick = std::max(last_tick, at);
      tick_time_ = at;
      member.group_tick(at, cycle);
    }
  }
  ticking_ = false;
  for (Cycle cycle = base_; cycle < end; ++cycle) {
    const Cycle s = cycle & (kWheelCycles - 1);
    occupied_[s / 64] &= ~(std::uint64_t{1} << (s % 64));
    std::fill(slot_words(cycle), slot_words(cycle) + words_, 0);
  }
  engine_.handled_until(last_tick);
  if (listener_ != nullptr) listener_->window_closed(base_, end);
  schedule_next(end - 1);
}

Time TickGroup::tick_together(Cycle end) {
  due_.clear();
  for (std::size_t w = 0; w < words_ && w * 64 < at_once_; ++w) {
    const std::size_t first = w * 64;
    std::uint64_t bits = in_window_[w];
    if (at_once_ - first < 64) bits &= (std::uint64_t{1} << (at_once_ - first)) - 1;
    in_window_[w] &= ~bits;
    for (; bits != 0; bits &= bits - 1) due_.push_back(static_cast<std::uint32_t>(first + __builtin_ctzll(bits)));
  }
  if (due_.empty()) return 0;
  last_edge_.assign(due_.size(), 0);
  errors_.assign(due_.size(), nullptr);
  deferring_ = true;
  workers_->for_ranges(due_.size(), [&](std::size_t begin, std::size_t stop) {
    for (std::size_t k = begin; k < stop; ++k) {
      if (k + 1 < stop) members_[due_[k + 1]]->prefetch();
      ClockedComponent& member = *members_[due_[k]];
      try {
        // As in on_event, but tick_time_ is not written: each member's present is its own
        // last tick while deferring (ClockedComponent::now).
        for (Cycle cycle = member.scheduled_cycle_; cycle < end; cycle = member.scheduled_cycle_) {
          const Time at = clock_.time_of(cycle);
          last_edge_[k] = at;
          member.group_tick(at, cycle);
        }
      } catch (...) {
        errors_[k] = std::current_exception();
      }
    }
  });
  deferring_ = false;
  // What the first member to fail threw, as ticking them in turn would have thrown it.
  for (const std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
  Time last = 0;
  for (std::size_t k = 0; k < due_.size(); ++k) {
    last = std::max(last, last_edge_[k]);
    std::vector<Cycle>& cycles = deferred_[due_[k]].cycles;
    for (const Cycle cycle : cycles) place(due_[k], cycle);
    cycles.clear();
  }
  // What the listener hands on may wake later members (the GigaThread engine): as when it was
  // done during the window, their present is no later than the edge that woke them.
  tick_time_ = clock_.time_of(base_);
  if (listener_ != nullptr) listener_->members_ticked(base_, end);
  return last;
}

}  // namespace warpsim::sim
