#include "sim/window_workers.hpp"

#include <immintrin.h>
#include <sched.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <exception>
#include <optional>

namespace warpsim::sim {
namespace {

// The ticket: epoch << 32 | ranges << 16; a share's next: epoch << 32 | next range. The shares
// are written before the ticket, and a range is taken by a compare-and-swap of its share's next
// that carries the epoch, so a thread that read a ticket of an earlier window can never take a
// range of the next one, whatever it reads of the fields the publisher is rewriting meanwhile:
// its compare-and-swap fails. Those fields are read only after a range was taken, while the
// window cannot change (the publisher waits for every range of it to finish).
constexpr std::uint64_t kRangeBits = 0xffffull;
constexpr std::size_t kMaxRanges = 0xffff;
constexpr std::uint64_t kShareBits = 0xffffffffull;
std::uint64_t ranges_of(std::uint64_t ticket) { return (ticket >> 16) & kRangeBits; }
// The first range of thread `share`'s share of `ranges` (its end: the next share's first).
std::uint64_t share_begin(std::uint64_t ranges, int share, int threads) {
  return ranges * static_cast<std::uint64_t>(share) / static_cast<std::uint64_t>(threads);
}
// How a thread waits for the next window: it spins (a pause is 40 to 140 host cycles), then
// yields its core between looks, which costs nothing when no one else wants the core and gives it
// to the thread it waits for when both share one (a busy host), and sleeps only after that: the
// memory system's part between two windows often takes longer than the spin, and a sleeping
// thread woke too late to take part in the next window (on a virtual machine a wake-up takes
// ~100 us).
constexpr int kSpins = 1024;
constexpr int kYields = 2000;

}  // namespace

struct WindowWorkers::Arena {
  // -j above the core count is honoured (testing -j 4 on 2 cores): TBB's default worker limit is
  // the core count, so it is raised while these workers exist.
  std::optional<tbb::global_control> limit;
  tbb::task_arena arena;
  tbb::task_group others;
  explicit Arena(int threads) : arena(threads) {
    if (threads > tbb::info::default_concurrency())
      limit.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  }
};

WindowWorkers::WindowWorkers(int threads, std::chrono::milliseconds join_after)
    : threads_(std::max(1, threads)),
      join_after_(join_after),
      arena_(std::make_unique<Arena>(threads_)),
      shares_(std::make_unique<Share[]>(static_cast<std::size_t>(threads_))) {}

WindowWorkers::~WindowWorkers() = default;

void WindowWorkers::join_others() {
  joined_ = true;
  arena_->arena.execute([&] {
    for (int k = 1; k < threads_; ++k) arena_->others.run([this, k] { wait_loop(k); });
  });
}

void WindowWorkers::run_erased(void (*f)(void*), void* context) {
  stop_.store(false);
  joined_ = false;
  const auto now = std::chrono::steady_clock::now();
  if (join_at_ == std::chrono::steady_clock::time_point::max()) join_at_ = now + join_after_;
  if (now >= join_at_) join_others();
  auto finish = [&] {
    if (!joined_) return;
    stop_.store(true);
    {
      std::lock_guard<std::mutex> lock(mutex_);
    }
    wake_.notify_all();
    // A task no thread took yet runs here and returns at once (stop_).
    arena_->arena.execute([&] { arena_->others.wait(); });
  };
  try {
    f(context);
  } catch (...) {
    finish();
    throw;
  }
  finish();
}

void WindowWorkers::wait_loop(int me) {
  std::uint64_t seen = ticket_.load() >> 32;
  while (true) {
    std::uint64_t epoch = ticket_.load(std::memory_order_acquire) >> 32;
    for (int spin = 0; spin < kSpins + kYields && epoch == seen && !stop_.load(std::memory_order_relaxed); ++spin) {
      if (spin < kSpins)
        _mm_pause();
      else
        sched_yield();
      epoch = ticket_.load(std::memory_order_acquire) >> 32;
    }
    if (epoch == seen && !stop_.load()) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleeping_.fetch_add(1);
      // Both sides use sequentially consistent operations: either the window's ticket is seen
      // here, or the publisher sees this thread asleep and wakes it.
      wake_.wait(lock, [&] { return (ticket_.load() >> 32) != seen || stop_.load(); });
      sleeping_.fetch_sub(1);
      epoch = ticket_.load() >> 32;
    }
    if (stop_.load()) return;
    seen = epoch;
    take_ranges(epoch, me);
  }
}

void WindowWorkers::take_ranges(std::uint64_t epoch, int me) {
  const std::uint64_t ticket = ticket_.load(std::memory_order_acquire);
  if ((ticket >> 32) != epoch) return;
  const std::uint64_t ranges = ranges_of(ticket);
  // Its own share first, then what is left of the others', from the next thread's on.
  for (int k = 0; k < threads_; ++k) {
    const int share = (me + k) % threads_;
    const std::uint64_t end = share_begin(ranges, share + 1, threads_);
    std::atomic<std::uint64_t>& next = shares_[static_cast<std::size_t>(share)].next;
    std::uint64_t at = next.load(std::memory_order_acquire);
    while ((at >> 32) == epoch && (at & kShareBits) < end) {
      if (!next.compare_exchange_weak(at, at + 1, std::memory_order_acq_rel)) continue;
      const std::size_t begin = static_cast<std::size_t>(at & kShareBits) * range_;
      body_(context_, begin, std::min(count_, begin + range_));
      finished_.fetch_add(1, std::memory_order_release);
      at = next.load(std::memory_order_acquire);
    }
    if ((at >> 32) != epoch) return;  // a later window: this one is done
  }
}

void WindowWorkers::for_ranges_erased(std::size_t count, void (*body)(void*, std::size_t, std::size_t),
                                      void* context) {
  if (count == 0) return;
  if (count < kFewestAtOnce) {
    body(context, 0, count);
    return;
  }
  if (!joined_) {
    if (std::chrono::steady_clock::now() < join_at_) {
      body(context, 0, count);
      return;
    }
    join_others();
  }
  body_ = body;
  context_ = context;
  count_ = count;
  // A few ranges per thread, so a thread whose members had little to do in this window takes
  // over part of another's; small ranges would cost their neighbours' prefetching and a
  // compare-and-swap each.
  range_ = std::max<std::size_t>({1, count / (static_cast<std::size_t>(threads_) * 4), count / kMaxRanges + 1});
  const std::size_t ranges = (count + range_ - 1) / range_;
  finished_.store(0, std::memory_order_relaxed);
  const std::uint64_t epoch = (ticket_.load(std::memory_order_relaxed) >> 32) + 1;
  for (int share = 0; share < threads_; ++share)
    shares_[static_cast<std::size_t>(share)].next.store(epoch << 32 | share_begin(ranges, share, threads_),
                                                        std::memory_order_relaxed);
  ticket_.store(epoch << 32 | std::uint64_t{ranges} << 16);  // sequentially consistent: see wait_loop
  if (sleeping_.load() > 0) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
    }
    wake_.notify_all();
  }
  take_ranges(epoch, 0);
  while (finished_.load(std::memory_order_acquire) < ranges) _mm_pause();
}

int available_cores() { return std::max(1, tbb::info::default_concurrency()); }

}  // namespace warpsim::sim
