// The threads that tick a window's SMs at once (sim/window_workers.hpp): every range of a window
// is run exactly once, by the calling thread alone until `join_after` has passed or while a window
// has only a few members, and otherwise by the other threads too. run -j 0 relies on the second:
// a short run never pays for threads.
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sim/window_workers.hpp"

using warpsim::sim::WindowWorkers;
using namespace std::chrono_literals;

namespace {

// What tick_windows saw: the threads that ran a member, and how often each member ran.
struct WindowsRun {
  std::set<std::thread::id> threads;
  std::vector<int> runs;  // by member: how often it ran, over every window
};

// Ticks `windows` windows of `count` members, each member a 20 us spin.
WindowsRun tick_windows(WindowWorkers& workers, int windows, std::size_t count) {
  WindowsRun result;
  std::vector<std::atomic<int>> runs(count);
  std::mutex mutex;
  workers.run([&] {
    for (int w = 0; w < windows; ++w) {
      workers.for_ranges(count, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          runs[i].fetch_add(1);
          const auto until = std::chrono::steady_clock::now() + 20us;
          while (std::chrono::steady_clock::now() < until) {
          }
        }
        std::lock_guard lock(mutex);
        result.threads.insert(std::this_thread::get_id());
      });
    }
  });
  for (const auto& n : runs) result.runs.push_back(n.load());
  return result;
}

}  // namespace

TEST_CASE("every member of every window runs once, whichever threads take it", "[window_workers]") {
  WindowWorkers workers(3);
  const WindowsRun run = tick_windows(workers, 200, 64);
  for (int n : run.runs) REQUIRE(n == 200);
  // Three threads over 200 windows of ~1.3 ms each: another than the caller took part.
  REQUIRE(run.threads.size() > 1);
}

TEST_CASE("a window of a few members is ticked by the calling thread alone", "[window_workers]") {
  WindowWorkers workers(3);
  const std::size_t few = WindowWorkers::kFewestAtOnce - 1;
  // Each window ~0.3 ms of work, as long as the many-member windows that the other threads join.
  const WindowsRun run = tick_windows(workers, 200, few);
  for (int n : run.runs) REQUIRE(n == 200);
  REQUIRE(run.threads == std::set<std::thread::id>{std::this_thread::get_id()});
  const WindowsRun many = tick_windows(workers, 200, WindowWorkers::kFewestAtOnce);
  REQUIRE(many.threads.size() > 1);
}

TEST_CASE("before join_after the calling thread ticks every window alone", "[window_workers]") {
  WindowWorkers workers(3, std::chrono::milliseconds{3'600'000});
  const WindowsRun run = tick_windows(workers, 200, 64);
  for (int n : run.runs) REQUIRE(n == 200);
  REQUIRE(run.threads == std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_CASE("once join_after has passed the other threads join the windows", "[window_workers]") {
  WindowWorkers workers(3, std::chrono::milliseconds{30});
  const WindowsRun early = tick_windows(workers, 1, 64);
  REQUIRE(early.threads == std::set<std::thread::id>{std::this_thread::get_id()});
  std::this_thread::sleep_for(40ms);
  const WindowsRun late = tick_windows(workers, 200, 64);
  for (int n : late.runs) REQUIRE(n == 200);
  REQUIRE(late.threads.size() > 1);
}

TEST_CASE("join_after counts from the first run, not from the workers' construction", "[window_workers]") {
  // A GPU makes its workers while it is built (milliseconds before its first window): a small
  // run must get its whole join_after alone. 20 windows take ~26 ms, well inside 100.
  WindowWorkers workers(3, std::chrono::milliseconds{100});
  std::this_thread::sleep_for(120ms);
  const WindowsRun first = tick_windows(workers, 20, 64);
  REQUIRE(first.threads == std::set<std::thread::id>{std::this_thread::get_id()});
  std::this_thread::sleep_for(120ms);
  const WindowsRun later = tick_windows(workers, 200, 64);
  REQUIRE(later.threads.size() > 1);
}
