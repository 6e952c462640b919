#include "sweeps/driver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "models/simulate.hpp"
#include "sim/window_workers.hpp"
#include "sim/config.hpp"
#include "sweeps/journal.hpp"

namespace warpsim::sweeps {
namespace {

// Workers push, the collector pops in batches; a mutex is plenty at points-per-second rates.
class ResultQueue {
 public:
  void push(PointResult r) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(r));
    }
    ready_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
  }
  // Waits up to `timeout`; returns false once closed and drained.
  bool pop_all(std::deque<PointResult>& out, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [&] { return closed_ || !items_.empty(); });
    out.swap(items_);
    return !(closed_ && out.empty());
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<PointResult> items_;
  bool closed_ = false;
};

}  // namespace

int default_jobs() {
  if (const char* env = std::getenv("SLURM_CPUS_PER_TASK")) {
    std::int64_t n;
    if (sim::parse_int(env, n) && n > 0) return static_cast<int>(n);
  }
  return std::max(1, tbb::this_task_arena::max_concurrency());
}

DriverOutcome run_points(const std::vector<Point>& points, const PointRunner& runner, const DriverOptions& options) {
  const std::size_t metric_count = models::metric_names().size();
  DriverOutcome outcome;
  std::vector<PointResult> done;
  std::optional<Journal> journal;
  if (options.journal) journal.emplace(*options.journal, options.sweep_fingerprint, metric_count);

  std::vector<const Point*> todo;
  for (const auto& p : points) {
    if (journal) {
      auto it = journal->finished().find(p.index);
      if (it != journal->finished().end()) {
        done.push_back(it->second);
        continue;
      }
    }
    todo.push_back(&p);
  }
  outcome.resumed = done.size();
  std::size_t failed = static_cast<std::size_t>(
      std::count_if(done.begin(), done.end(), [](const PointResult& r) { return r.status != kPointOk; }));

  Progress progress(options.progress, options.log_interval, points.size(), done.size(), options.label);
  ResultQueue queue;
  std::exception_ptr collector_error;
  std::atomic<bool> collector_failed{false};

  // The collector: the only thread that touches the journal and the progress line.
  std::thread collector([&] {
    try {
      std::deque<PointResult> batch;
      std::size_t unsynced = 0;
      auto last_sync = std::chrono::steady_clock::now();
      while (queue.pop_all(batch, std::chrono::milliseconds(250))) {
        for (auto& r : batch) {
          if (journal) journal->append(r);
          ++unsynced;
          if (r.status != kPointOk) ++failed;
          done.push_back(std::move(r));
        }
        batch.clear();
        auto now = std::chrono::steady_clock::now();
        if (journal && unsynced > 0 && (unsynced >= options.sync_every || now - last_sync >= options.sync_interval)) {
          journal->sync();
          unsynced = 0;
          last_sync = now;
        }
        progress.update(done.size(), failed);
      }
      if (journal) journal->sync();
    } catch (...) {
      collector_error = std::current_exception();
      collector_failed = true;
    }
  });

  auto should_stop = [&] { return collector_failed.load() || (options.stop && options.stop->load()); };
  // No more workers than points: a thread per idle worker is only cost. The cores go to points
  // first; what is left is split among the runs, each ticking its SMs on its share (run -j).
  const int cores = options.jobs > 0 ? options.jobs : default_jobs();
  const int jobs = static_cast<int>(std::min<std::size_t>(cores, std::max<std::size_t>(1, todo.size())));
  const int threads_per_run = std::max(1, cores / jobs);
  // -j above the core count is honoured (e.g. points that wait on I/O, or testing -j 4 on 2 cores):
  // TBB's default worker limit is the core count, so raise it for this sweep.
  tbb::global_control workers(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(std::max(cores, tbb::this_task_arena::max_concurrency())));
  tbb::task_arena arena(jobs);
  arena.execute([&] {
    // One task per point: points take milliseconds to minutes, so balance matters more than overhead.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, todo.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (should_stop()) return;
            models::RunRequest request = todo[i]->request;
            request.threads = threads_per_run;
            request.threads_join_after = sim::kThreadsJoinAfter;
            queue.push(run_point(todo[i]->index, request, runner));
          }
        },
        tbb::simple_partitioner());
  });
  queue.close();
  collector.join();
  if (collector_error) std::rethrow_exception(collector_error);

  std::sort(done.begin(), done.end(), [](const PointResult& a, const PointResult& b) { return a.index < b.index; });
  outcome.ran = done.size() - outcome.resumed;
  outcome.failed = failed;
  outcome.interrupted = done.size() < points.size();
  progress.finish(done.size(), failed, outcome.interrupted);
  outcome.results = std::move(done);
  return outcome;
}

}  // namespace warpsim::sweeps
