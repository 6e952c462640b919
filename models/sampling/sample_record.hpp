#pragma once
// What sampled simulation did to one launch: which of its blocks it did not simulate in detail,
// the time and counts it credits for them, and how far that time may be off; or why it
// simulated the launch in full.
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/gpu.hpp"

namespace warpsim::models::sampling {

// Why a launch ran in full although sampling was asked.
enum class FallbackKind { None, FewWaves, SharedGpu, NeverSteady, BlocksDiffer };

struct SampleRecord {
  std::uint64_t blocks = 0;          // the launch's blocks
  std::uint64_t skipped_blocks = 0;  // of those, not simulated in detail
  // Where they are: [first, first + count) block ids, in the order skipped.
  struct Range {
    std::uint64_t first = 0, count = 0;
  };
  std::vector<Range> skipped;
  bool whole_launch = false;         // skipped as a repeat of earlier identical launches
  // Why nothing was skipped (empty when something was): the warning and the result say it.
  std::string fallback;
  // Why skipping stopped after some blocks were skipped (a warning).
  std::string note;
  // Credited for the skipped blocks: cycles, and the counts of the launch's totals. Those that
  // follow from the instruction streams (instructions, lanes, requests, sectors, transactions,
  // bytes, bank conflicts, replays) are the skipped blocks' own, walked; the rest are
  // extrapolated from the steady state (or the launch repeated).
  sim::Cycle skipped_cycles = 0;
  LaunchTotals added;
  // The estimated error of skipped_cycles, in cycles (docs/sampling.md says how it is made).
  double error_cycles = 0;
  // Cycles credited to earlier launches by the time this one started: its start_cycle moves by
  // as much.
  sim::Cycle offset_before = 0;

  bool sampled() const { return skipped_blocks > 0; }
};

// `detailed` (what the GPU simulated of the launch) plus what `record` credits for the rest.
LaunchTotals with_skipped(LaunchTotals detailed, const SampleRecord& record);

}  // namespace warpsim::models::sampling
