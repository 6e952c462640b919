// TickGroup (sim/tick_group.hpp): members of one clock tick through one engine event per edge,
// at exactly the edges they would tick at with events of their own, in join order within an
// edge; wakes beyond the wheel (4096 cycles) wait in the overflow list.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "sim/clocked_component.hpp"
#include "sim/engine.hpp"
#include "sim/tick_group.hpp"

using namespace warpsim::sim;

namespace {

using Log = std::vector<std::pair<Cycle, int>>;

std::string member_name(int id) {
  std::string name = "m";
  name += std::to_string(id);
  return name;
}

// Ticks at the cycles of `plan`: busy (ticks again) when the next one is the next edge,
// otherwise asleep until it with wake_at.
struct Planned : ClockedComponent {
  Planned(Engine& e, ClockDomain c, int id_, std::vector<Cycle> plan_, Log& log_)
      : ClockedComponent(e, c, member_name(id_)), id(id_), plan(std::move(plan_)), log(log_) {}
  Planned(Engine& e, TickGroup& g, ClockDomain c, int id_, std::vector<Cycle> plan_, Log& log_)
      : ClockedComponent(e, g, c, member_name(id_)), id(id_), plan(std::move(plan_)), log(log_) {}
  int id;
  std::vector<Cycle> plan;
  std::size_t next = 0;
  Log& log;
  Planned* wakes_on_first_tick = nullptr;

  void start() { wake_at(plan.front()); }
  bool tick(Cycle cycle) override {
    log.emplace_back(cycle, id);
    if (wakes_on_first_tick != nullptr && next == 0) wakes_on_first_tick->wake();
    while (next < plan.size() && plan[next] <= cycle) ++next;
    if (next == plan.size()) return false;
    if (plan[next] == cycle + 1) return true;
    wake_at(plan[next]);
    return false;
  }
  bool has_pending_work() const override { return next < plan.size(); }
};

std::vector<std::vector<Cycle>> random_plans(int members) {
  std::uint64_t state = 7;
  auto rnd = [&](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  std::vector<std::vector<Cycle>> plans(members);
  for (auto& plan : plans) {
    Cycle c = rnd(20);
    for (int k = 0; k < 60; ++k) {
      plan.push_back(c);
      const std::uint64_t r = rnd(10);
      c += r < 5 ? 1 : r < 9 ? 1 + rnd(700) : 4000 + rnd(9000);  // busy, a load, beyond the wheel
    }
  }
  return plans;
}

// Hears each window close.
struct WindowLog : WindowListener {
  std::vector<std::pair<Cycle, Cycle>> windows;
  void window_closed(Cycle begin, Cycle end) override { windows.emplace_back(begin, end); }
};

// Runs `plans` in one tick group of `window` cycles; returns the ticks in the order they came,
// and the engine's event count in `events`.
Log tick_in_group(const ClockDomain& clock, const std::vector<std::vector<Cycle>>& plans, Cycle window,
                  WindowListener* listener, std::uint64_t* events = nullptr) {
  Log log;
  Engine engine;
  TickGroup group(engine, clock, window, listener);
  std::vector<std::unique_ptr<Planned>> m;
  for (std::size_t i = 0; i < plans.size(); ++i)
    m.push_back(std::make_unique<Planned>(engine, group, clock, static_cast<int>(i), plans[i], log));
  for (auto& p : m) p->start();
  engine.run();
  if (events != nullptr) *events = engine.events_processed();
  return log;
}

}  // namespace

TEST_CASE("a tick group ticks its members at the edges they ask for, in member order", "[sim][clock]") {
  const ClockDomain clock(505);
  const auto plans = random_plans(150);  // three words of member bits

  Log alone_log;
  {
    Engine engine;
    std::vector<std::unique_ptr<Planned>> m;
    for (int i = 0; i < 150; ++i) m.push_back(std::make_unique<Planned>(engine, clock, i, plans[i], alone_log));
    for (auto& p : m) p->start();
    engine.run();
  }
  std::uint64_t group_events = 0;
  const Log group_log = tick_in_group(clock, plans, 1, nullptr, &group_events);
  // Same ticks; within an edge, member order.
  REQUIRE(group_log.size() == alone_log.size());
  REQUIRE(std::is_sorted(group_log.begin(), group_log.end()));
  std::sort(alone_log.begin(), alone_log.end());
  REQUIRE(group_log == alone_log);
  // One event per edge with ticks (plus the initial wakes, which may be superseded), not one
  // per tick.
  std::vector<Cycle> edges;
  for (const auto& [cycle, id] : group_log)
    if (edges.empty() || edges.back() != cycle) edges.push_back(cycle);
  CHECK(group_events <= edges.size() + 150);
}

TEST_CASE("a member woken by another in the same edge ticks in that edge, after it", "[sim][clock]") {
  const ClockDomain clock(1000);
  Engine engine;
  TickGroup group(engine, clock);
  Log log;
  Planned low(engine, group, clock, 0, {50}, log);    // asleep until cycle 50 ...
  Planned high(engine, group, clock, 1, {10}, log);   // ... but member 1 wakes it at cycle 10
  high.wakes_on_first_tick = &low;
  high.start();
  low.start();
  engine.run();
  REQUIRE(log == Log{{10, 1}, {10, 0}, {50, 0}});
}

TEST_CASE("a tick group refuses a member on another clock", "[sim][tick_group]") {
  Engine engine;
  TickGroup group(engine, ClockDomain(500));
  Log log;
  Planned same(engine, group, ClockDomain(500), 0, {1}, log);
  REQUIRE_THROWS_AS(Planned(engine, group, ClockDomain(400), 1, {1}, log), std::invalid_argument);
}

TEST_CASE("a windowed tick group ticks each member through a window before the next", "[sim][clock]") {
  const ClockDomain clock(505);
  const auto plans = random_plans(70);
  const Log lockstep_log = tick_in_group(clock, plans, 1, nullptr);
  for (const Cycle window : {Cycle{2}, Cycle{37}, Cycle{100}}) {
    INFO("window " << window);
    WindowLog closed;
    const Log log = tick_in_group(clock, plans, window, &closed);
    // Every member ticks at exactly its edges ...
    Log sorted = log;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(sorted == lockstep_log);
    // ... member after member inside each window, each in time order; windows do not overlap,
    // and every tick lies in the window that closes after it.
    REQUIRE_FALSE(closed.windows.empty());
    std::size_t w = 0;
    for (std::size_t k = 0; k < log.size(); ++k) {
      while (w < closed.windows.size() && log[k].first >= closed.windows[w].second) ++w;
      REQUIRE(w < closed.windows.size());
      REQUIRE(log[k].first >= closed.windows[w].first);
      REQUIRE(closed.windows[w].second - closed.windows[w].first == window);
      if (k > 0 && log[k - 1].first >= closed.windows[w].first) {
        const bool same_member = log[k - 1].second == log[k].second;
        REQUIRE((same_member ? log[k - 1].first < log[k].first : log[k - 1].second < log[k].second));
      }
    }
    for (std::size_t k = 1; k < closed.windows.size(); ++k) REQUIRE(closed.windows[k].first >= closed.windows[k - 1].second);
  }
}

TEST_CASE("in a window, a member woken by a later one ticks after it; the clock ends at the last tick", "[sim][clock]") {
  const ClockDomain clock(1000);
  Engine engine;
  WindowLog closed;
  TickGroup group(engine, clock, 8, &closed);
  Log log;
  Planned low(engine, group, clock, 0, {3, 50}, log);  // asleep from 3 to 50 ...
  Planned high(engine, group, clock, 1, {5}, log);     // ... until member 1 wakes it at cycle 5
  high.wakes_on_first_tick = &low;
  high.start();
  low.start();
  engine.run();
  REQUIRE(log == Log{{3, 0}, {5, 1}, {5, 0}, {50, 0}});
  REQUIRE(closed.windows == std::vector<std::pair<Cycle, Cycle>>{{3, 11}, {50, 58}});
  REQUIRE(engine.now() == clock.time_of(50));  // the last tick, not the window's end
  REQUIRE_THROWS_AS(TickGroup(engine, clock, 0), std::invalid_argument);
}
