#pragma once
// Sampled simulation (run --sample, `sample = on` in sweep specs; docs/sampling.md). Attached to
// a Gpu, it watches every launch and, where the launch allows, leaves part of it out of the
// detailed simulation and credits it instead:
// - Block level: a launch of many waves runs in detail until it reaches steady state
//   (steady_state.hpp); the blocks that would follow, all but the last waves, are then skipped
//   and credited at the steady windows' rate (wave_measure.hpp), and the last waves run in detail
//   after them, so the tail is real.
// - Launch level: a launch identical to the earlier ones of its kernel, whose times have
//   settled, is credited their time instead of being run (launch_repeats.hpp).
// Skipped blocks must be alike the measured ones. Their instruction streams are read without
// timing (block_walk.hpp): every skipped block, or, for a kernel whose blocks are alike by
// construction (KernelSource::blocks_alike), probes among them. The reading gives the skipped
// blocks' exact counts (instructions, requests, sectors ...), and lets a trace's errors and
// warnings surface as in a full run. Where blocks differ, steady state never comes or another
// launch shares the GPU, the launch runs in full and its record says why.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "models/sampling/block_walk.hpp"
#include "models/sampling/launch_repeats.hpp"
#include "models/sampling/sample_record.hpp"
#include "models/sampling/wave_measure.hpp"

namespace warpsim::models::sampling {

// The stated bounds (docs/sampling.md).
struct SamplingRules {
  WarmRule warm;
  SteadyRule steady;
  std::uint32_t tail_waves = 1;      // the last waves, always simulated in detail
  // A launch is sampled only if steady state comes while at least this share of its blocks is
  // still to run (beyond the tail): skipping less gains little speed for its error, and a sweep's
  // nearly equal points would trade places. Later chunks need only a wave.
  double min_skip_share = 0.5;
  std::uint32_t min_skip_waves = 1;
  // Blocks not alike by construction are skipped this many waves at a time, each chunk checked
  // against the rate measured after it.
  std::uint32_t chunk_waves = 16;
  // Blocks alike by construction (KernelSource::blocks_alike): the skipped blocks read to check
  // that they are, the first ones and others spread over them; and blocks of the steady windows
  // read to compare them with.
  std::uint32_t consecutive_probes = 8;
  std::uint32_t probes = 24;
  std::uint32_t reference_probes = 8;
  RepeatRule repeats;
};

class Sampler final : public LaunchObserver, public RetireObserver {
 public:
  // Observes `gpu`'s launches and retirements from now on. `seed` as the run's.
  Sampler(const Arch& arch, Gpu& gpu, std::uint64_t seed, SamplingRules rules = {});

  void launched(std::uint32_t slot) override;
  void blocks_retired(std::uint32_t slot, sim::Cycle now) override;

  // After the run.
  const SampleRecord& record(std::uint32_t slot) const { return launches_[slot].record; }
  // Launch `slot`'s totals: what the GPU simulated of it plus what sampling credits for the rest.
  LaunchTotals launch_totals(std::uint32_t slot) const;
  // What sampling credits in all, to be added to the GPU's totals (cycles included).
  GpuTotals added_gpu() const;
  MemoryCounters added_memory() const;
  // The launches simulated in full although sampling was asked, a line per reason; `numbers`
  // are the launches' 1-based positions in the workload, by slot (none: a library kernel).
  std::vector<std::string> warnings(const std::vector<std::uint32_t>& numbers) const;

 private:
  // Skipped blocks whose credit waits for the rate measured after them.
  struct Chunk {
    std::uint64_t blocks = 0;
    Credit before;  // at the rate measured before them
    StreamCounts walked;
  };
  struct Launch {
    SampleRecord record;
    FallbackKind fallback_kind = FallbackKind::None;
    std::uint64_t wave = 0;  // blocks the GPU holds at once
    bool alike_blocks = true;  // KernelSource::blocks_alike
    std::unique_ptr<WaveMeasure> measure;  // while its blocks are measured
    std::optional<Chunk> pending;
    std::optional<std::pair<std::uint64_t, StreamCounts>> reference;  // a measured block, read
    bool registered = false;               // offered to repeats_ once it finished
    std::optional<LaunchStreams> streams;  // its instruction streams walked, once asked for
  };
  // Launch level: credits the launch as a repeat of earlier ones if it is one (launch_repeats.hpp).
  bool skip_repeat(std::uint32_t slot, sim::Cycle now);
  const LaunchStreams& streams_of(std::uint32_t slot);
  // Block level: the launch was measured up to a steady state; skips what it can.
  void try_skip(std::uint32_t slot, sim::Cycle now);
  // Credits the pending chunk, at the mean of its rate and `after`'s (none: its own). False
  // when the two differ beyond the drift bound: the launch then stops skipping.
  bool settle(std::uint32_t slot, const WaveMeasure* after);
  // Adds `blocks` skipped blocks to the launch's record: credit `c` with `walked`'s exact counts.
  void credit(std::uint32_t slot, std::uint64_t blocks, Credit c, const StreamCounts& walked);
  void fall_back(std::uint32_t slot, FallbackKind kind, std::string why);
  // Whether the `count` blocks from `first` are alike the blocks measured; if so, `skipped`
  // holds their counts. Otherwise `why` says which block differs.
  bool alike(std::uint32_t slot, std::uint64_t first, std::uint64_t count, StreamCounts& skipped, std::string& why);
  bool alone(std::uint32_t slot) const;
  // The walker, set to launch `slot` (built at the first walk).
  BlockWalker& walker_for(std::uint32_t slot);

  const Arch& arch_;
  Gpu& gpu_;
  std::uint64_t seed_;
  SamplingRules rules_;
  std::vector<Launch> launches_;  // by kernel slot
  LaunchRepeats repeats_;
  std::unique_ptr<BlockWalker> walker_;
  std::uint32_t walker_slot_ = ~0u;
  sim::Cycle credited_ = 0;  // cycles credited so far, all launches
};

}  // namespace warpsim::models::sampling
