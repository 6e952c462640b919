#include "models/core/gigathread.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "sim/errors.hpp"

namespace warpsim::models {

GigaThread::GigaThread(sim::Engine& engine, sim::ClockDomain clock, const DispatchSpec& spec, const SmSpec& sm,
                       std::uint64_t core_clock_khz, std::string preset, std::vector<std::unique_ptr<Sm>>& sms)
    : sim::ClockedComponent(engine, clock, "gpu.gigathread"),
      spec_(spec),
      sm_(sm),
      kernel_start_cycles_((spec.kernel_start_ns * core_clock_khz + 500'000) / 1'000'000),
      preset_(std::move(preset)),
      sms_(sms),
      retire_interval_fixed_(static_cast<std::uint64_t>(spec.retire_interval_cycles * kFrac + 0.5)) {}

std::uint32_t GigaThread::launch(std::unique_ptr<traces::KernelSource> source) {
  auto run = std::make_unique<KernelRun>();
  run->info = source->info();
  run->source = std::move(source);
  run->traced = dynamic_cast<traces::TracedKernelSource*>(run->source.get());
  BlockResources resources{static_cast<std::uint32_t>(run->info.threads_per_block()),
                           run->info.registers_per_thread, run->info.shared_bytes_per_block};
  try {
    compute_occupancy(sm_, resources, preset_);  // throws InputError if a block can never run
  } catch (const sim::InputError& e) {
    if (run->info.origin.empty()) throw;
    throw sim::InputError(run->info.origin, e.what());
  }
  run->footprint = block_footprint(sm_, resources);
  run->total_blocks = run->info.grid.count();
  run->start = now_cycle();
  run->end = run->start;
  run->first_dispatch = run->start + kernel_start_cycles_;
  run->may_fit.assign((sms_.size() + 63) / 64, 0);
  for (std::uint32_t sm = 0; sm < sms_.size(); ++sm) run->may_fit[sm / 64] |= std::uint64_t{1} << (sm % 64);
  wake_at(run->first_dispatch);
  kernels_.push_back(std::move(run));
  return static_cast<std::uint32_t>(kernels_.size() - 1);
}

bool GigaThread::all_done() const {
  for (const auto& k : kernels_)
    if (!k->done()) return false;
  return true;
}

bool GigaThread::stream_busy(std::uint64_t stream) const {
  for (const auto& k : kernels_)
    if (!k->done() && k->info.stream_id == stream) return true;
  return false;
}

bool GigaThread::tick(sim::Cycle now) {
  release_retired(now);
  constexpr sim::Cycle kNone = std::numeric_limits<sim::Cycle>::max();
  sim::Cycle next_start = kNone;  // the end of the earliest start time still running
  for (std::uint32_t slot = 0; slot < kernels_.size(); ++slot) {
    KernelRun& k = *kernels_[slot];
    if (k.next_block == k.total_blocks) continue;
    if (now < k.first_dispatch) {
      next_start = std::min(next_start, k.first_dispatch);
      continue;
    }
    if (k.traced != nullptr) {
      skip_untraced(k, now);
      if (k.next_block == k.total_blocks) continue;
    }
    if (!k.first_wave_placed && spec_.first_wave_block_interval_cycles > 0) {
      place_first_wave(slot, now);
      continue;
    }
    // Round-robin over SMs, starting after the one that got the last block.
    for (std::uint32_t sm = next_candidate(k.may_fit, next_sm_); sm < sms_.size();
         sm = next_candidate(k.may_fit, sm)) {
      if (!sms_[sm]->fits(k.footprint)) {
        k.may_fit[sm / 64] &= ~(std::uint64_t{1} << (sm % 64));
        continue;
      }
      const std::uint64_t id = k.next_block++;
      sms_[sm]->launch_block(slot, k.footprint, k.source->open_block(id), now + spec_.block_start_latency_cycles, id);
      next_sm_ = (sm + 1) % sms_.size();
      engine().note_progress();
      if (spec_.block_interval_cycles > 1) {
        wake_at(now + spec_.block_interval_cycles);
        return false;
      }
      return true;
    }
  }
  // Nothing fits: sleep until a block retires or a kernel's start time is over.
  if (next_start != kNone) wake_at(next_start);
  return false;
}

void GigaThread::place_first_wave(std::uint32_t slot, sim::Cycle now) {
  KernelRun& k = *kernels_[slot];
  k.first_wave_placed = true;
  const auto n = static_cast<std::uint32_t>(sms_.size());
  std::vector<std::uint32_t> placed(n, 0);  // blocks placed on each SM so far
  // The wave reaches the SMs one after another, first_wave_sm_interval_cycles apart, in the
  // order of the first round.
  std::vector<std::uint64_t> reached(n, 0);
  for (std::uint32_t i = 0; i < n; ++i)
    reached[(next_sm_ + i) % n] = std::uint64_t{i} * spec_.first_wave_sm_interval_cycles;
  // Rounds over the SMs, from the one after the last block's, one block an SM a round.
  for (bool any = true; any && k.next_block < k.total_blocks;) {
    any = false;
    const std::uint32_t first = next_sm_;
    for (std::uint32_t i = 0; i < n && k.next_block < k.total_blocks; ++i) {
      const std::uint32_t sm = (first + i) % n;
      if (!(k.may_fit[sm / 64] >> (sm % 64) & 1u)) continue;
      if (!sms_[sm]->fits(k.footprint)) {
        k.may_fit[sm / 64] &= ~(std::uint64_t{1} << (sm % 64));
        continue;
      }
      const std::uint64_t id = k.next_block++;
      const sim::Cycle start = now + spec_.block_start_latency_cycles + reached[sm] +
                               std::uint64_t{placed[sm]++} * spec_.first_wave_block_interval_cycles;
      sms_[sm]->launch_block(slot, k.footprint, k.source->open_block(id), start, id);
      next_sm_ = (sm + 1) % n;
      any = true;
      if (k.traced != nullptr) skip_untraced(k, now);
    }
  }
  engine().note_progress();
}

void GigaThread::skip_untraced(KernelRun& k, sim::Cycle now) {
  // A thread block that never ran is left out of an Accel-Sim trace (FORMAT.md section 3), so it
  // takes no dispatch and no SM here. Jumping to the next traced id also keeps a corrupt or
  // sparse grid (2^31 x 65535 x 65535 ids, a few hundred traced) from being walked id by id.
  const std::optional<std::uint64_t> next = k.traced->next_traced_block(k.next_block);
  const std::uint64_t id = next ? std::min(*next, k.total_blocks) : k.total_blocks;
  if (id == k.next_block) return;
  k.retired_blocks += id - k.next_block;
  k.next_block = id;
  if (k.done()) k.end = std::max(k.end, now);  // nothing of it left to run
}

std::uint32_t GigaThread::next_candidate(const std::vector<std::uint64_t>& bits, std::uint32_t from) const {
  const std::uint32_t n = static_cast<std::uint32_t>(sms_.size());
  auto first_at_or_after = [&](std::uint32_t start) -> std::uint32_t {
    for (std::uint32_t w = start / 64; w < bits.size(); ++w) {
      std::uint64_t word = bits[w];
      if (w == start / 64) word &= ~std::uint64_t{0} << (start % 64);
      if (word != 0) return w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(word));
    }
    return n;
  };
  const std::uint32_t found = first_at_or_after(from);
  return found < n ? found : first_at_or_after(0);  // wrap around; n when no bit is set
}

void GigaThread::on_block_retired(std::uint32_t sm, std::uint32_t block, std::uint32_t kernel_slot, sim::Cycle now) {
  // Handled when this engine ticks at `now`, after every SM has ticked that cycle (gpu.cpp).
  retired_.push_back({now, sm, block, kernel_slot});
  wake_at(now);
}

void GigaThread::skip_blocks(std::uint32_t slot, std::uint64_t count, sim::Cycle now) {
  KernelRun& k = *kernels_[slot];
  count = std::min(count, k.total_blocks - k.next_block);
  k.next_block += count;
  k.retired_blocks += count;
  if (k.done()) k.end = std::max(k.end, now);
}

void GigaThread::release_retired(sim::Cycle now) {
  // The SMs report in SM order and each in time order; by time, then SM, is the order in which
  // they retired (what depends on the order: the kernel's end).
  std::stable_sort(retired_.begin(), retired_.end(), [](const Retired& a, const Retired& b) { return a.at < b.at; });
  std::size_t done = 0;
  for (; done < retired_.size(); ++done) {
    const Retired& r = retired_[done];
    // One finished block taken in per retire_interval_cycles GPU-wide (0: no limit).
    const sim::Cycle at = std::max(r.at, (next_release_ + kFrac - 1) / kFrac);
    if (at > now) break;
    next_release_ = std::max(next_release_, r.at * kFrac) + retire_interval_fixed_;  // fractions carry over
    sms_[r.sm]->release_block(r.block);
    // The freed resources may take a block of any kernel that still has blocks to dispatch.
    for (auto& run : kernels_)
      if (run->next_block < run->total_blocks) run->may_fit[r.sm / 64] |= std::uint64_t{1} << (r.sm % 64);
    KernelRun& k = *kernels_[r.kernel_slot];
    ++k.retired_blocks;
    if (k.done()) k.end = at;  // its last block's stores have landed (Sm::tick) and it was taken in
  }
  if (observer_ != nullptr)
    for (std::size_t i = 0; i < done; ++i)
      if (i + 1 == done || retired_[i].kernel_slot != retired_[i + 1].kernel_slot)
        observer_->blocks_retired(retired_[i].kernel_slot, now);
  retired_.erase(retired_.begin(), retired_.begin() + static_cast<std::ptrdiff_t>(done));
  if (!retired_.empty() && (next_release_ + kFrac - 1) / kFrac > now) {
    wake_at(std::max(retired_.front().at, (next_release_ + kFrac - 1) / kFrac));
    return;
  }
  // An SM ticking ahead of this engine's clock (a window, gpu.hpp) may report a retire later
  // than a tick this engine had already asked for: that tick comes first, this one after it.
  if (!retired_.empty()) wake_at(retired_.front().at);
}

bool GigaThread::has_pending_work() const {
  if (!retired_.empty()) return true;
  for (const auto& k : kernels_)
    if (k->next_block < k->total_blocks) return true;
  return false;
}

std::string GigaThread::waiting_for() const {
  std::ostringstream out;
  for (const auto& k : kernels_)
    if (k->next_block < k->total_blocks)
      out << k->info.name << ": " << (k->total_blocks - k->next_block) << " blocks not dispatched; ";
  out << "an SM with room for the next block";
  return out.str();
}

}  // namespace warpsim::models
