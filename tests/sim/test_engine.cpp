// Engine: event order, sleeping clocked components, the deadlock detector.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/clocked_component.hpp"
#include "sim/engine.hpp"
#include "sim/errors.hpp"

using namespace warpsim::sim;

namespace {

struct Recorder : EventHandler {
  std::vector<std::pair<Time, std::uint64_t>> seen;
  void on_event(Time now, std::uint64_t payload) override { seen.emplace_back(now, payload); }
};

// Counts down `work` units, one per tick; sleeps when it has nothing to do.
struct Worker : ClockedComponent {
  Worker(Engine& e, ClockDomain c, std::string name) : ClockedComponent(e, c, std::move(name)) {}
  int work = 0;
  std::vector<Cycle> busy_cycles;
  bool tick(Cycle cycle) override {
    if (work == 0) return false;
    --work;
    busy_cycles.push_back(cycle);
    return true;
  }
  bool has_pending_work() const override { return work > 0; }
  std::string waiting_for() const override { return std::to_string(work) + " units of work"; }
};

}  // namespace

TEST_CASE("events at equal times run in insertion order", "[sim][engine]") {
  Engine engine;
  Recorder r;
  engine.schedule(20, r, 1);
  engine.schedule(10, r, 2);
  engine.schedule(20, r, 3);
  engine.schedule(10, r, 4);
  engine.schedule(20, r, 5);
  engine.run();
  std::vector<std::pair<Time, std::uint64_t>> expected{{10, 2}, {10, 4}, {20, 1}, {20, 3}, {20, 5}};
  REQUIRE(r.seen == expected);
}

TEST_CASE("events scheduled from a handler at the current time run after those already queued",
          "[sim][engine]") {
  Engine engine;
  Recorder later;
  struct Chain : EventHandler {
    Engine& e;
    Recorder& r;
    Chain(Engine& e_, Recorder& r_) : e(e_), r(r_) {}
    void on_event(Time now, std::uint64_t) override { e.schedule(now, r, 99); }
  } chain(engine, later);
  engine.schedule(5, chain, 0);
  engine.schedule(5, later, 1);
  engine.run();
  REQUIRE(later.seen == std::vector<std::pair<Time, std::uint64_t>>{{5, 1}, {5, 99}});
}

TEST_CASE("the queue pops in (time, scheduling order) under random pushes, also at the instant being drained",
          "[sim][engine]") {
  // Reference: every event sorted by (time, sequence). Pushes interleave with pops, a third of
  // them at the time just popped (the bucket being drained), the rest up to 50 ps ahead, so
  // instants are created, drained, retired and their buckets reused many times over.
  EventQueue q;
  Recorder r;
  std::vector<Event> popped;
  std::uint64_t state = 12345, pushed = 0;
  auto rnd = [&](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  Time now = 0;
  for (int step = 0; step < 20000; ++step) {
    const int pushes = static_cast<int>(rnd(3));
    for (int k = 0; k < pushes; ++k) q.push(rnd(3) == 0 ? now : now + rnd(50), r, pushed++);
    if (!q.empty() && rnd(4) != 0) {
      const Time expected_next = q.next_time();
      Event e = q.pop();
      REQUIRE(e.time == expected_next);
      now = e.time;
      popped.push_back(e);
    }
  }
  while (!q.empty()) popped.push_back(q.pop());
  REQUIRE(popped.size() == pushed);
  for (std::size_t i = 1; i < popped.size(); ++i) {
    INFO("pop " << i);
    REQUIRE(popped[i - 1].time <= popped[i].time);
    if (popped[i - 1].time == popped[i].time) REQUIRE(popped[i - 1].sequence < popped[i].sequence);
  }
}

TEST_CASE("run stops before events past its limit and resumes", "[sim][engine]") {
  Engine engine;
  Recorder r;
  engine.schedule(100, r, 1);
  engine.schedule(300, r, 2);
  engine.run(200);
  REQUIRE(r.seen.size() == 1);
  engine.run();
  REQUIRE(r.seen.size() == 2);
}

TEST_CASE("a clocked component sleeps when idle and costs no ticks until woken", "[sim][clock]") {
  Engine engine;
  Worker w(engine, ClockDomain(1000), "gpu.worker");  // 1 ns period
  w.work = 3;
  w.wake();
  engine.run();
  // Three busy ticks at cycles 0,1,2, then one idle tick at cycle 3 that puts it to sleep.
  REQUIRE(w.busy_cycles == std::vector<Cycle>{0, 1, 2});
  REQUIRE(w.ticks() == 4);
  REQUIRE(w.asleep());

  // A wake far in the future: the idle gap costs nothing.
  struct Waker : EventHandler {
    Worker& w;
    explicit Waker(Worker& w_) : w(w_) {}
    void on_event(Time, std::uint64_t) override {
      w.work = 2;
      w.wake();
    }
  } waker(w);
  engine.schedule(1'000'500, waker, 0);  // between edges: the worker ticks at the next edge
  engine.run();
  REQUIRE(w.busy_cycles == std::vector<Cycle>{0, 1, 2, 1001, 1002});
  REQUIRE(w.ticks() == 7);  // 4 + two busy + one idle, not a million
}

TEST_CASE("waking twice in one cycle schedules one tick", "[sim][clock]") {
  Engine engine;
  Worker w(engine, ClockDomain(10), "w");
  w.work = 1;
  w.wake();
  w.wake();
  engine.run();
  REQUIRE(w.busy_cycles == std::vector<Cycle>{0});
  REQUIRE(w.ticks() == 2);
}

TEST_CASE("a component woken in the cycle it already ticked ticks again at the next edge", "[sim][clock]") {
  Engine engine;
  Worker w(engine, ClockDomain(10), "w");
  w.wake();
  engine.run();  // ticks at 0, idle, sleeps
  REQUIRE(w.ticks() == 1);
  w.work = 1;
  w.wake();  // now is still 0: must not tick twice at t=0
  engine.run();
  REQUIRE(w.busy_cycles == std::vector<Cycle>{1});
}

TEST_CASE("clock domains round periods to whole picoseconds", "[sim][clock]") {
  REQUIRE(ClockDomain::from_khz(1'980'000).period() == 505);
  REQUIRE(ClockDomain::from_khz(732'000).period() == 1366);
  ClockDomain c(505);
  REQUIRE(c.edge_at_or_after(0) == 0);
  REQUIRE(c.edge_at_or_after(1) == 505);
  REQUIRE(c.edge_at_or_after(505) == 505);
  REQUIRE(c.cycle_at(1010) == 2);
}

TEST_CASE("deadlock: work pending and nothing left to happen names the stuck component", "[sim][deadlock]") {
  Engine engine;
  Worker stuck(engine, ClockDomain(10), "gpu.sm7.scheduler2");
  Worker idle(engine, ClockDomain(10), "gpu.sm0");
  engine.watch(stuck);
  engine.watch(idle);
  stuck.work = 5;  // has work but nobody ever wakes it
  try {
    engine.run();
    FAIL("expected a DeadlockError");
  } catch (const DeadlockError& e) {
    std::string msg = e.what();
    REQUIRE(msg.find("gpu.sm7.scheduler2 waits for 5 units of work") != std::string::npos);
    REQUIRE(msg.find("gpu.sm0") == std::string::npos);
  }
}

TEST_CASE("deadlock: events keep firing but nobody makes progress", "[sim][deadlock]") {
  // A component that is always busy-waiting: it ticks (events fire) but never reports
  // progress, so only the no-progress watchdog can catch it.
  struct Spinner : EventHandler, Component {
    Engine& e;
    explicit Spinner(Engine& e_) : Component("gpu.spinner"), e(e_) {}
    void on_event(Time now, std::uint64_t) override { e.schedule(now + 10, *this, 0); }
    bool has_pending_work() const override { return true; }
    std::string waiting_for() const override { return "a reply that never comes"; }
  };
  Engine engine(/*deadlock_after=*/100'000);
  Spinner s(engine);
  engine.watch(s);
  engine.schedule(0, s, 0);
  REQUIRE_THROWS_WITH(engine.run(), Catch::Contains("no progress") && Catch::Contains("gpu.spinner waits for a reply"));
}

TEST_CASE("no deadlock is reported when all work completes", "[sim][deadlock]") {
  Engine engine;
  Worker w(engine, ClockDomain(10), "w");
  engine.watch(w);
  w.work = 10;
  w.wake();
  REQUIRE_NOTHROW(engine.run());
  REQUIRE(w.work == 0);
}

TEST_CASE("wake_at sleeps until a known cycle, and an earlier wake supersedes a later one", "[sim][clock]") {
  Engine engine;
  Worker w(engine, ClockDomain(10), "w");
  w.work = 1;
  w.wake_at(50);
  w.wake_at(70);  // later than the one already scheduled: ignored
  engine.run();
  REQUIRE(w.busy_cycles == std::vector<Cycle>{50});
  w.work = 1;
  w.wake_at(100);
  w.wake_at(80);  // earlier: the tick at 100 becomes stale
  engine.run();
  REQUIRE(w.busy_cycles == std::vector<Cycle>{50, 80});
  REQUIRE(w.ticks() == 4);  // 50 busy, 51 idle, 80 busy, 81 idle; the stale 100 is not a tick
}
