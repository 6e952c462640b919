#pragma once
// Host threads that tick the members of a tick group's window at once (TickGroup::tick_at_once).
// A simulation owns its workers, so simulations of a sweep each have their own.
//
// A window is short (an H100's SMs tick 37 cycles of it, a few hundred microseconds of host time
// or less), far too short for a fork and join that wakes sleeping threads each time: a woken
// oneTBB worker arrived after the calling thread had ticked every SM itself. So while run()
// runs the simulation, each of the other threads is a oneTBB task of the workers' own arena that
// stays in a loop, waiting (spinning, then yielding its core, then asleep) for the next window,
// whose ranges every thread then claims one at a time, its own share first (so an SM stays on
// one core from window to window), then what is left of the others', the calling thread among
// them. A thread that has not arrived yet (a busy host, or a sweep's arena whose threads
// are all taken) never holds anything up: the others take its ranges. With one thread nothing
// here is used: a tick group without workers ticks its members one after another, exactly as it
// always has. Nor, with `join_after`, before the run has ticked that long on the calling thread
// alone: a short run (a small trace, a kernel of a few waves) is over before threads that must
// start and keep in step with every window would pay for themselves (run -j 0).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

namespace warpsim::sim {

class WindowWorkers {
 public:
  // `threads` >= 1: the calling thread and threads - 1 others, which join the windows once
  // `join_after` of host time has passed since run() was first called (0: from the first
  // window). Counted from the simulation's start, not from the GPU's construction: building an
  // H100 takes 6-10 ms of a small run, and a trace that simulated for 12 ms more crossed 20 ms
  // just before its end, paying for threads that had nothing left to do (docs/performance.md).
  explicit WindowWorkers(int threads, std::chrono::milliseconds join_after = std::chrono::milliseconds{0});
  ~WindowWorkers();
  WindowWorkers(const WindowWorkers&) = delete;
  WindowWorkers& operator=(const WindowWorkers&) = delete;

  int threads() const { return threads_; }
  // A window of fewer members than this is ticked by the calling thread alone: splitting a few
  // SMs costs more than it saves (their state moves to another core and back, and the caller
  // waits for the slowest range), and the other threads, left waiting, soon give their cores to
  // whatever else runs, such as a trace's reader. bfs's launches of 8 blocks ran slower at -j 2
  // than at -j 1 (docs/performance.md).
  static constexpr std::size_t kFewestAtOnce = 16;

  // Runs `f()` on the calling thread while the other threads wait for windows (for_ranges).
  template <class F>
  void run(F&& f) {
    run_erased(&invoke<F>, &f);
  }
  // Calls body(begin, end) over disjoint ranges covering [0, count), on whichever threads take
  // them (the calling thread included; it alone below kFewestAtOnce), and returns when every call
  // has returned. `body` must not throw.
  template <class F>
  void for_ranges(std::size_t count, F&& body) {
    for_ranges_erased(count, &invoke_range<F>, &body);
  }

 private:
  template <class F>
  static void invoke(void* f) {
    (*static_cast<std::remove_reference_t<F>*>(f))();
  }
  template <class F>
  static void invoke_range(void* f, std::size_t begin, std::size_t end) {
    (*static_cast<std::remove_reference_t<F>*>(f))(begin, end);
  }
  void run_erased(void (*f)(void*), void* context);
  void for_ranges_erased(std::size_t count, void (*body)(void*, std::size_t, std::size_t), void* context);
  // Starts the other threads' loops (run_erased, or the first window after join_after).
  void join_others();
  // The loop of the other thread `me` (1 to threads - 1; the calling thread is 0).
  void wait_loop(int me);
  // Takes ranges of the window of epoch `epoch` until none is left, thread `me`'s share first.
  void take_ranges(std::uint64_t epoch, int me);

  int threads_;
  std::chrono::milliseconds join_after_;
  // Set by the first run(); until then never reached.
  std::chrono::steady_clock::time_point join_at_ = std::chrono::steady_clock::time_point::max();
  bool joined_ = false;  // the other threads are in their loops (this run_erased)
  struct Arena;
  std::unique_ptr<Arena> arena_;

  // The window being ticked, written before `ticket_` is stored.
  void (*body_)(void*, std::size_t, std::size_t) = nullptr;
  void* context_ = nullptr;
  std::size_t count_ = 0, range_ = 1;
  // The window's epoch and its number of ranges (window_workers.cpp).
  alignas(64) std::atomic<std::uint64_t> ticket_{0};
  // Each thread's share of a window's ranges: thread k takes the k-th of threads_ equal runs of
  // ranges before it helps with the others'. A run's SMs are mostly the same from window to
  // window, so an SM is mostly ticked on the same core and its state stays in that core's caches:
  // taken in turn from one counter, an SM went to whichever thread came first, and on this
  // project's virtual machine a cache line takes ~250 ns from one core to the other
  // (bench_parallel). `next` holds the epoch and the next range of the share; taking one is a
  // compare-and-swap that fails when the window has changed.
  struct Share {
    alignas(64) std::atomic<std::uint64_t> next{0};
  };
  std::unique_ptr<Share[]> shares_;
  alignas(64) std::atomic<std::size_t> finished_{0};  // ranges of the window done
  alignas(64) std::atomic<bool> stop_{false};
  std::atomic<int> sleeping_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

// When the other threads join a run that was not told how many to use (run -j 0, a sweep's
// spare cores). Side by side on a 2-core machine, wall-time medians of 10 alternating runs, -j 1
// / threads from the start / joining after 20 ms: vectoradd's trace 39.6 / 47.8 / 40.2 ms,
// btree's 67.5 / 69.4 / 68.4, readOffset n = 2^20 231 / 203 / 217, 2^22 702 / 588 / 585,
// backprop's 461 / 395 / 386.
inline constexpr std::chrono::milliseconds kThreadsJoinAfter{20};

// The threads a run uses when told 0 ("all"): the cores this process may use.
int available_cores();

}  // namespace warpsim::sim
