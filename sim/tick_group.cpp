#include "sim/tick_group.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/clocked_component.hpp"

namespace warpsim::sim {

TickGroup::TickGroup(Engine& engine, ClockDomain clock)
    : engine_(engine), clock_(clock), occupied_(kWheelCycles / 64, 0) {}

std::uint32_t TickGroup::join(ClockedComponent& member) {
  // Members are marked for the next cycle of the group's clock (ClockedComponent::group_tick).
  if (member.clock().period() != clock_.period())
    throw std::invalid_argument(member.path() + ": a tick group's members share its clock");
  members_.push_back(&member);
  words_ = (members_.size() + 63) / 64;
  wheel_.assign(kWheelCycles * words_, 0);
  return static_cast<std::uint32_t>(members_.size() - 1);
}

void TickGroup::mark(std::uint32_t index, Cycle cycle) {
  same_edge_request_ |= cycle == base_;
  slot_words(cycle)[index / 64] |= std::uint64_t{1} << (index % 64);
  const Cycle slot = cycle & (kWheelCycles - 1);
  occupied_[slot / 64] |= std::uint64_t{1} << (slot % 64);
}

void TickGroup::request(std::uint32_t index, Time edge) {
  const Cycle cycle = clock_.cycle_at(edge);
  if (cycle - base_ < kWheelCycles) {
    mark(index, cycle);
  } else {
    overflow_.emplace_back(cycle, index);
    overflow_first_ = std::min(overflow_first_, cycle);
  }
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
  const Cycle cycle = clock_.cycle_at(now);
  base_ = cycle;
  admit_overflow();
  ticking_ = true;
  // Lowest index first. A member may ask for this same edge while the others tick (one that has
  // not ticked yet, woken by one that has); then the slot is read again for the next member, and
  // otherwise the next member is the one found (and prefetched) before the tick.
  std::uint64_t* slot = slot_words(cycle);
  constexpr std::size_t kNoMember = ~std::size_t{0};
  auto first_due = [&]() {
    std::size_t w = 0;
    while (w < words_ && slot[w] == 0) ++w;
    return w == words_ ? kNoMember : w * 64 + static_cast<std::size_t>(__builtin_ctzll(slot[w]));
  };
  for (std::size_t index = first_due(); index != kNoMember;) {
    slot[index / 64] &= ~(std::uint64_t{1} << (index % 64));
    const std::size_t following = first_due();
    if (following != kNoMember) members_[following]->prefetch();
    same_edge_request_ = false;
    members_[index]->group_tick(now, cycle);
    index = same_edge_request_ ? first_due() : following;
  }
  ticking_ = false;
  const Cycle s = cycle & (kWheelCycles - 1);
  occupied_[s / 64] &= ~(std::uint64_t{1} << (s % 64));
  schedule_next(cycle);
}

}  // namespace warpsim::sim
