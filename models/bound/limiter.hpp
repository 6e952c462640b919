#pragma once
// Why a launch (or a run) takes the time it takes: one verdict, with the numbers behind it, from
// the resources' utilisation, the schedulers' stall breakdown, the occupancy and the grid.
//
//   dram-bandwidth, l2-bandwidth, l1-lsu, shared-banks, issue: a resource serves 60% of its peak
//     or more over the elapsed time, and the busiest one is named (issue names its pipe, or
//     "dispatch" when the schedulers' issue slots themselves are the busiest);
//   launch: the time from the kernel's start to its first block is at least as long as the rest;
//   tail: no resource reaches 60%, and the schedulers sit without warps a quarter of the time
//     after the start, because the grid has too few blocks or its last wave is partial;
//   barrier: ... and warps wait at __syncthreads a quarter of the scheduler-cycles or more;
//   latency: ... otherwise: warps wait on results; "too few warps" when fewer than half the SM's
//     warp slots are in use on average, else "too little ILP".
// 60% is Nsight Compute's own line (its SpeedOfLight rule's latency_bound_threshold: below it in
// both compute and memory a kernel "typically indicates latency issues"), so that the verdicts
// can be checked against ncu's (analysis/validation, table h100-limiter).
#include <cstdint>
#include <string>
#include <string_view>

#include "models/arch.hpp"
#include "models/bound/utilization.hpp"
#include "models/occupancy.hpp"

namespace warpsim::models {

enum class Limiter : std::uint8_t { DramBandwidth, L2Bandwidth, L1Lsu, SharedBanks, Issue, Latency, Barrier, Tail, Launch };
inline constexpr int kLimiterCount = 9;
std::string_view limiter_name(Limiter l);  // "dram-bandwidth", ... (CONTRACT.md)

// Utilisation at or above which a resource is the limiter (Nsight Compute's line, above).
inline constexpr double kSaturatedShare = 0.60;

// What a verdict is drawn from. Shares are of scheduler-cycles; NaN where a launch overlapped
// others and the SMs' books are not its own (LaunchResult::overlapped).
struct BoundInputs {
  Utilization use;
  std::uint64_t cycles = 0;        // elapsed
  std::uint64_t start_cycles = 0;  // of them, from the kernel's start to its first block
  double cycles_per_us = 1;
  double idle = 0, barrier = 0, memory_wait = 0, alu_wait = 0, issued = 0;  // scheduler states
  double achieved_occupancy = 0;  // of the SM's warp slots
  Occupancy theoretical;          // the occupancy calculator's, for the launch's block
  std::uint64_t blocks = 0;       // in the grid
  std::uint32_t sms = 0;
  double load_efficiency = 1, store_efficiency = 1;  // bytes used / bytes moved (gld/gst_efficiency)
  double shared_conflict_share = 0;  // of shared-memory wavefronts, those bank conflicts added
  double replay_share = 0;           // of LSU passes, those beyond an instruction's first
  // Preset peaks, for the sentence.
  double dram_bytes_per_second = 0;
  std::uint32_t l2_slices = 0;
};

struct Verdict {
  Limiter limiter = Limiter::Latency;
  std::string evidence;  // short: "DRAM at 79% of 3.35 TB/s", "too few warps: 16 of 64 (blocks)"
  // The verdict as one sentence with its numbers, to follow "<limiter>: " (run prints it so).
  std::string sentence;
};

Verdict judge(const BoundInputs& in);

// Blocks per SM an occupancy allows, over the grid: how many times the GPU fills with the grid.
double waves(const Occupancy& occupancy, std::uint64_t blocks, std::uint32_t sms);

}  // namespace warpsim::models
