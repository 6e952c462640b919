#include "models/core/gpu.hpp"

#include <algorithm>

#include "models/memory/persistence_policy.hpp"
#include "traces/launches_ahead.hpp"

namespace warpsim::models {
namespace {

// The most cycles the SMs may tick apart with the same results as in lockstep (gpu.hpp): less
// than the memory system's shortest answer and than a dispatched block's wait to start.
sim::Cycle longest_window(const Arch& arch, const MemorySystem& memory) {
  return std::clamp<sim::Cycle>(std::min<sim::Cycle>(memory.min_latency(), arch.dispatch.block_start_latency_cycles), 1,
                                sim::TickGroup::kMaxWindow);
}

}  // namespace

Gpu::Gpu(const Arch& arch, MemorySystem& memory, sim::StatsRegistry& stats, bool lockstep, int threads,
         std::chrono::milliseconds threads_join_after)
    // The deadlock watchdog allows far more than any memory latency: 10 million cycles.
    : arch_(arch),
      memory_(memory),
      engine_(sim::ClockDomain::from_khz(arch.gpu.core_clock_khz).period() * 10'000'000ULL),
      clock_(sim::ClockDomain::from_khz(arch.gpu.core_clock_khz)),
      logs_(arch.gpu.sms),
      sm_ticks_(engine_, clock_, lockstep ? 1 : longest_window(arch, memory), this) {
  // The GigaThread engine holds a reference to the SM list, filled right after.
  gigathread_ = std::make_unique<GigaThread>(engine_, clock_, arch.dispatch, arch.sm, arch.gpu.core_clock_khz,
                                             arch.preset, sms_);
  const bool at_once = threads > 1 && arch.gpu.sms > 1;
  if (at_once) {
    workers_ = std::make_unique<sim::WindowWorkers>(threads, threads_join_after);
    side_ = std::vector<SmSideBuffers>(arch.gpu.sms);
    memory_.count_sm_accesses_later();
  }
  warp_slots_arena_ = sim::ZeroPagesArena(arch.gpu.sms * Sm::warp_slots_arena_bytes(arch.sm));
  for (std::uint32_t i = 0; i < arch.gpu.sms; ++i) {
    BlockRetireListener& retires = at_once ? static_cast<BlockRetireListener&>(side_[i]) : *gigathread_;
    sms_.push_back(std::make_unique<Sm>(engine_, sm_ticks_, clock_, arch.sm, arch.units, arch.dispatch, i, memory,
                                        logs_[i], retires, stats, warp_slots_arena_));
  }
  if (at_once) sm_ticks_.tick_at_once(arch.gpu.sms, workers_.get());
  // At a clock edge the SMs tick first, then the GigaThread engine: it sees the blocks retired at
  // that edge and hands out their resources at once. A fixed order, rather than whichever event
  // happened to be scheduled first, keeps results independent of when each component slept.
  gigathread_->tick_through(sm_ticks_);
  engine_.watch(*gigathread_);
  for (const auto& sm : sms_) engine_.watch(*sm);
}

void Gpu::record_timeline(WarpTimeline* timeline) {
  timeline_ = timeline;
  for (std::uint32_t i = 0; i < sms_.size(); ++i)
    sms_[i]->record_timeline(side_.empty() || timeline == nullptr ? timeline : &side_[i].timeline());
}

void Gpu::members_ticked(sim::Cycle, sim::Cycle) {
  for (std::uint32_t i = 0; i < sms_.size(); ++i) {
    side_[i].hand_on(*gigathread_, timeline_);
    memory_.take_sm_counts(i);
  }
}

void Gpu::drain() {
  if (workers_ != nullptr)
    workers_->run([&] { engine_.run(); });
  else
    engine_.run();
  for (std::uint32_t k = 0; k < books_.size(); ++k) {
    LaunchBooks& b = books_[k];
    if (b.alone && !b.closed && gigathread_->kernel(k).done()) {
      b.at_end = cycle_books(gigathread_->kernel(k).end);
      b.closed = true;
    }
  }
}

Gpu::CycleBooks Gpu::cycle_books(sim::Cycle at) {
  CycleBooks books;
  for (const auto& sm : sms_) {
    sm->close_books(at);
    books.active_cycles += sm->counters().active_cycles;
    for (int s = 0; s < kSchedulerStateCount; ++s) books.state_cycles[s] += sm->counters().state_cycles[s];
  }
  return books;
}

void Gpu::window_closed(sim::Cycle begin, sim::Cycle end) {
  // In cycle-by-cycle order (access_log.hpp), starting to load the host memory a few accesses
  // ahead will touch while this one is served.
  constexpr std::size_t kAhead = 4;
  put_in_order(logs_, begin, end - begin, cycle_starts_, in_order_);
  for (std::size_t k = 0; k < in_order_.size(); ++k) {
    if (k + kAhead < in_order_.size()) {
      const DeferredAccess& ahead = *in_order_[k + kAhead];
      memory_.prefetch(ahead.sm, ahead.inst, ahead.range);
    }
    DeferredAccess& a = *in_order_[k];
    a.ready = memory_.access(a.sm, a.kernel_slot, a.inst, a.range, a.issued).ready;
  }
  for (DeferredAccess* a : in_order_) sms_[a->sm]->answer(*a);
  if (timeline_ != nullptr) [[unlikely]]  // once a window, not once an access
    for (const DeferredAccess* a : in_order_) sms_[a->sm]->record_load_data(*a);
  for (AccessLog& log : logs_) log.clear();
  for (const auto& sm : sms_)
    if (sm->needs_settling()) sm->settle(end);
}

void Gpu::launch(std::unique_ptr<traces::KernelSource> kernel, const LaunchPolicy& policy) {
  launch_warnings_ =
      merged(std::move(launch_warnings_), memory::check_launch_policy(arch_.l2, arch_.gpu.name, kernel->info()));
  // Same-stream launches serialise. Waiting for the whole GPU instead of just that stream keeps
  // the host simple and only matters for multi-stream traces that reuse a busy stream.
  if (policy.serialize || gigathread_->stream_busy(kernel->info().stream_id)) drain();
  if (policy.flush_caches) {
    // ncu's flush completes before the profiled launch starts: the launch finds DRAM idle.
    const sim::Cycle quiet = memory_.flush_caches(clock_.cycle_at(engine_.now()));
    engine_.advance_idle(clock_.time_of(quiet));
  }
  LaunchBooks books;
  books.alone = gigathread_->all_done();
  if (books.alone)
    books.at_start = cycle_books(clock_.cycle_at(engine_.now()));
  else
    for (std::uint32_t k = 0; k < books_.size(); ++k)
      if (!gigathread_->kernel(k).done()) books_[k].alone = false;
  books_.push_back(books);
  std::uint32_t slot = static_cast<std::uint32_t>(gigathread_->kernel_count());
  memory_.begin_kernel(slot, kernel->info());
  gigathread_->launch(std::move(kernel));
  if (launch_observer_ != nullptr) launch_observer_->launched(slot);
}

void Gpu::run(traces::Workload& workload, const LaunchPolicy& policy) {
  traces::LaunchesAhead launches(workload);
  for (std::size_t i = 0; i < workload.steps.size(); ++i) {
    const traces::WorkloadStep& step = workload.steps[i];
    launches.open_from(i);  // before the GPU waits below: the next launches are read meanwhile
    if (step.kind == traces::WorkloadStep::Kind::Memcpy) {
      drain();  // cudaMemcpy waits for the device
      memory_.memcpy_to_device(step.memcpy.device_address, step.memcpy.bytes);
    } else {
      launch(launches.take(i), policy);
    }
  }
  drain();
  for (std::uint32_t k = 0; k < gigathread_->kernel_count(); ++k) memory_.end_kernel(k);
}

void Gpu::run(std::unique_ptr<traces::KernelSource> kernel, const LaunchPolicy& policy) {
  launch(std::move(kernel), policy);
  drain();
  for (std::uint32_t k = 0; k < gigathread_->kernel_count(); ++k) memory_.end_kernel(k);
}

LaunchTotals Gpu::launch_totals(std::uint32_t slot) const {
  const KernelRun& k = gigathread_->kernel(slot);
  const LaunchBooks& books = books_[slot];
  LaunchTotals out;
  out.start = k.start;
  out.alone = books.alone && books.closed;
  GpuTotals& t = out.gpu;
  t.cycles = k.end - k.start;
  for (const auto& sm : sms_) {
    const SmLaunchCounts c = sm->launch_counts(slot);
    t.warp_instructions += c.instructions;
    t.active_lanes += c.active_lanes;
    t.issue_events += c.issue_events;
    t.dual_issues += c.dual_issues;
    t.warp_cycles += c.warp_cycles;
    for (int u = 0; u < traces::kUnitCount; ++u) t.pipe_slots[u] += c.pipe_slots[u];
  }
  if (out.alone) {
    t.active_cycles = books.at_end.active_cycles - books.at_start.active_cycles;
    for (int s = 0; s < kSchedulerStateCount; ++s) {
      t.state_cycles[s] = books.at_end.state_cycles[s] - books.at_start.state_cycles[s];
      t.scheduler_cycles += t.state_cycles[s];
    }
  }
  out.memory = memory_.kernel_counters(slot);
  return out;
}

LaunchTotals Gpu::running_totals(std::uint32_t slot, sim::Cycle at) {
  LaunchTotals out = launch_totals(slot);
  out.gpu.cycles = at - out.start;
  const CycleBooks books = cycle_books(at);
  out.gpu.active_cycles = books.active_cycles;
  out.gpu.scheduler_cycles = 0;
  for (int s = 0; s < kSchedulerStateCount; ++s) {
    out.gpu.state_cycles[s] = books.state_cycles[s];
    out.gpu.scheduler_cycles += books.state_cycles[s];
  }
  for (const auto& sm : sms_) out.gpu.warp_cycles += sm->live_warp_cycles(at);
  return out;
}

std::vector<std::string> Gpu::merged(std::vector<std::string> into, const std::vector<std::string>& more) {
  for (const auto& w : more)
    if (std::find(into.begin(), into.end(), w) == into.end()) into.push_back(w);
  return into;
}

std::vector<std::string> Gpu::warnings() const {
  // Asked of each source now, not at its launch: a trace finds an unknown opcode only when a
  // warp reaches it.
  std::vector<std::string> out;
  for (std::uint32_t k = 0; k < gigathread_->kernel_count(); ++k)
    out = merged(std::move(out), gigathread_->kernel(k).source->warnings());
  return merged(std::move(out), launch_warnings_);
}

GpuTotals Gpu::totals() {
  GpuTotals t;
  for (std::uint32_t k = 0; k < gigathread_->kernel_count(); ++k) t.cycles = std::max(t.cycles, gigathread_->kernel(k).end);
  for (const auto& sm : sms_) {
    sm->finish(t.cycles);
    const SmCounters& c = sm->counters();
    t.warp_instructions += c.instructions;
    t.active_lanes += c.active_lanes;
    t.issue_events += c.issue_events;
    t.dual_issues += c.dual_issues;
    t.warp_cycles += c.warp_cycles;
    t.active_cycles += c.active_cycles;
    for (int s = 0; s < kSchedulerStateCount; ++s) t.state_cycles[s] += c.state_cycles[s];
    for (int u = 0; u < traces::kUnitCount; ++u) t.pipe_slots[u] += c.pipe_slots[u];
  }
  for (int s = 0; s < kSchedulerStateCount; ++s) t.scheduler_cycles += t.state_cycles[s];
  return t;
}

}  // namespace warpsim::models
