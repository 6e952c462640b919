#pragma once
// The GigaThread engine (S1.1): hands thread blocks of the running kernels to SMs as their
// resources free up, in block-id order, at most one block every `block_interval_cycles`
// GPU-wide, from `kernel_start_ns` after the kernel starts; a block's warps become schedulable
// `block_start_latency_cycles` after its dispatch. Several kernels (different streams) may be
// resident at once; older launches are served first.
// Finished blocks are taken in (their resources freed, the kernel's end moved) at most one per
// `retire_interval_cycles` GPU-wide: on the H100 a kernel of 1,320 empty blocks takes 0.7 us more
// than one of 132 although all fit at once (dispatch.csv), and waves after the first start about
// one block a cycle (turnaround_blocks.csv.xz).
// When a kernel starts, its first wave may be placed on every SM at once, round-robin until no SM
// has room, the blocks of one SM starting `first_wave_block_interval_cycles` apart and the SMs
// reached `first_wave_sm_interval_cycles` after one another: on the H100 each SM starts its first
// blocks ~10 cycles apart and the SMs' first blocks start within ~150 ns of each other, while later
// blocks go out at about one a cycle GPU-wide (turnaround_blocks.csv.xz: 4,224 32-thread blocks
// start within ~600 cycles in the first wave, each later wave takes ~4,600).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core/dispatch_spec.hpp"
#include "models/core/sm_spec.hpp"
#include "models/core/sm.hpp"
#include "models/occupancy.hpp"
#include "sim/clocked_component.hpp"
#include "traces/traced_kernel_source.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::models {

struct KernelRun {
  std::unique_ptr<traces::KernelSource> source;
  traces::KernelInfo info;
  BlockFootprint footprint;
  std::uint64_t total_blocks = 0, next_block = 0, retired_blocks = 0;
  sim::Cycle start = 0, end = 0;
  sim::Cycle first_dispatch = 0;  // start + the preset's kernel start time
  traces::TracedKernelSource* traced = nullptr;  // `source` if it reads a trace that may leave blocks out
  // Bit per SM: not known to be too full for this kernel's block. A failed fit clears it and
  // only a block retiring on that SM sets it again (launches only take resources away), so
  // dispatch skips the full SMs without asking each one.
  std::vector<std::uint64_t> may_fit;
  bool first_wave_placed = false;  // the blocks placed when it started (first_wave_block_interval_cycles)
  bool done() const { return retired_blocks == total_blocks; }
};

// Told when blocks of a kernel have retired (the sampler, models/sampling/); it may then skip
// blocks not yet dispatched (GigaThread::skip_blocks).
class RetireObserver {
 public:
  virtual ~RetireObserver() = default;
  // Blocks of kernel `slot` retired at `now` and have been released (KernelRun::retired_blocks
  // counts them).
  virtual void blocks_retired(std::uint32_t slot, sim::Cycle now) = 0;
};

class GigaThread final : public sim::ClockedComponent, public BlockRetireListener {
 public:
  // Built from its own spec and the SMs' (`spec`, `sm`: what a block takes, which outlive it);
  // `core_clock_khz` counts the kernel's start time in cycles, `preset` names the GPU in messages.
  GigaThread(sim::Engine& engine, sim::ClockDomain clock, const DispatchSpec& spec, const SmSpec& sm,
             std::uint64_t core_clock_khz, std::string preset, std::vector<std::unique_ptr<Sm>>& sms);

  // Starts a kernel now; returns its slot. Throws InputError if one block cannot fit an SM.
  std::uint32_t launch(std::unique_ptr<traces::KernelSource> source);
  const KernelRun& kernel(std::uint32_t slot) const { return *kernels_[slot]; }
  std::size_t kernel_count() const { return kernels_.size(); }
  bool all_done() const;
  // True while a kernel of this stream is running.
  bool stream_busy(std::uint64_t stream) const;
  // Sampled simulation: `observer` hears of every retirement (nullptr: none does).
  void observe_retirements(RetireObserver* observer) { observer_ = observer; }
  // The next `count` blocks of kernel `slot` are never dispatched: they count as retired now, and
  // dispatch goes on from the block after them. A kernel left with no block is done at `now`.
  void skip_blocks(std::uint32_t slot, std::uint64_t count, sim::Cycle now);

  void on_block_retired(std::uint32_t sm, std::uint32_t block, std::uint32_t kernel_slot, sim::Cycle now) override;
  bool has_pending_work() const override;
  std::string waiting_for() const override;

 protected:
  bool tick(sim::Cycle now) override;

 private:
  // Gives the SMs back the blocks retired up to `now`, oldest first, and counts them as done.
  void release_retired(sim::Cycle now);
  // Moves `k.next_block` past the ids its trace left out, counting them as done.
  void skip_untraced(KernelRun& k, sim::Cycle now);
  // Places kernel slot `slot`'s first wave at `now` (first_wave_block_interval_cycles).
  void place_first_wave(std::uint32_t slot, sim::Cycle now);
  // The first SM at or after `from` in round-robin order whose bit is set, or sms_.size().
  std::uint32_t next_candidate(const std::vector<std::uint64_t>& bits, std::uint32_t from) const;

  const DispatchSpec& spec_;
  const SmSpec& sm_;
  const sim::Cycle kernel_start_cycles_;  // dispatch.kernel_start_ns in core cycles
  const std::string preset_;
  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<std::unique_ptr<KernelRun>> kernels_;
  // Blocks the SMs reported retired and have not been given back yet (on_block_retired).
  struct Retired {
    sim::Cycle at;
    std::uint32_t sm, block, kernel_slot;
  };
  std::vector<Retired> retired_;
  std::uint32_t next_sm_ = 0;
  // When the next finished block may be taken in, and the interval, in 1/kFrac cycles.
  static constexpr std::uint64_t kFrac = 1024;
  std::uint64_t next_release_ = 0;
  std::uint64_t retire_interval_fixed_ = 0;
  RetireObserver* observer_ = nullptr;
};

}  // namespace warpsim::models
