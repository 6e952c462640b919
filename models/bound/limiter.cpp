#include "models/bound/limiter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpsim::models {
namespace {

// A scheduler without warps a quarter of the time after the kernel's start, or warps at a
// barrier a quarter of the scheduler-cycles, is time the grid's shape or the barrier costs
// outright: stated thresholds, not measured ones (no ncu metric splits a latency-bound kernel's
// time this way).
constexpr double kTailIdleShare = 0.25;
constexpr double kBarrierShare = 0.25;
// Fewer than half the SM's warp slots in use leaves each scheduler a handful of warps to switch
// between (S2.9: about 32 warps per SM are needed to hide arithmetic latency).
constexpr double kFewWarps = 0.5;

std::string format(const char* fmt, double a = 0, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

std::string percent(double share) { return format("%.0f%%", 100 * share); }

// The busiest resource of a group, and how busy.
struct Busiest {
  Resource resource = Resource::Issue;
  double share = 0;
};

Busiest busiest(const Utilization& u, std::initializer_list<Resource> group) {
  Busiest b{*group.begin(), -1};
  for (Resource r : group)
    if (u[r] > b.share) b = {r, u[r]};
  return b;
}

// What the bytes that were moved were worth, when less than all of it was used.
std::string efficiency_note(const BoundInputs& in) {
  std::string out;
  if (in.load_efficiency < 0.995) out += "; loads use " + percent(in.load_efficiency) + " of the bytes their sectors move";
  if (in.store_efficiency < 0.995)
    out += "; stores use " + percent(in.store_efficiency) + " of the bytes their sectors move";
  return out;
}

std::string highest_unit(const Utilization& u) {
  Resource top = Resource::Issue;
  for (int r = 0; r < kResourceCount; ++r)
    if (u.of[r] > u[top]) top = Resource(r);
  return std::string(resource_name(top)) + " at " + percent(u[top]);
}

Verdict throughput_verdict(const BoundInputs& in, Limiter limiter, Busiest b) {
  const Utilization& u = in.use;
  Verdict v{limiter, {}, {}};
  switch (limiter) {
    case Limiter::DramBandwidth:
      v.evidence = "DRAM at " + percent(b.share) + format(" of %.3g TB/s", in.dram_bytes_per_second / 1e12);
      v.sentence = "DRAM moves " + format("%.3g TB/s", b.share * in.dram_bytes_per_second / 1e12) + ", " +
                   percent(b.share) + " of the preset's " + format("%.3g TB/s", in.dram_bytes_per_second / 1e12) +
                   efficiency_note(in);
      break;
    case Limiter::L2Bandwidth:
      v.evidence = "L2 slices at " + percent(b.share);
      v.sentence = format("the %.0f L2 slices", in.l2_slices) + " serve " + percent(b.share) +
                   " of the sectors their ports can take" + efficiency_note(in);
      break;
    case Limiter::L1Lsu:
      v.evidence = std::string(resource_name(b.resource)) + " at " + percent(b.share);
      v.sentence = "the LSU path through L1 is busy " + percent(b.share) + " of cycles (" +
                   std::string(resource_name(b.resource)) + format(", %.2f wavefronts a cycle per SM", u[Resource::L1Wavefronts]) +
                   (in.replay_share > 0.005 ? "; " + percent(in.replay_share) + " of its passes are replays" : "") + ")" +
                   efficiency_note(in);
      break;
    case Limiter::SharedBanks:
      v.evidence = "shared memory at " + percent(u[Resource::Shared]) +
                   (in.shared_conflict_share > 0.005 ? ", " + percent(in.shared_conflict_share) + " bank conflicts" : "");
      v.sentence = "shared memory serves " + format("%.2f wavefronts a cycle per SM", u[Resource::Shared]) + " (" +
                   percent(u[Resource::Shared]) + " of one a cycle; the LD/ST units are busy " +
                   percent(u[Resource::PipeLdSt]) + ")" +
                   (in.shared_conflict_share > 0.005
                        ? "; " + percent(in.shared_conflict_share) + " of those wavefronts are bank-conflict replays"
                        : "; no bank conflicts");
      break;
    default: {  // Issue
      const bool dispatch = b.resource == Resource::Issue;
      v.evidence = dispatch ? "dispatch: issue slots at " + percent(b.share)
                            : std::string(resource_name(b.resource)) + " pipe at " + percent(b.share);
      v.sentence = dispatch ? "the schedulers issue in " + percent(b.share) + " of their cycles (dispatch)"
                            : "the " + std::string(resource_name(b.resource)) + " pipe is busy " + percent(b.share) +
                                  " of cycles; the schedulers issue in " + percent(u[Resource::Issue]) + " of theirs";
      break;
    }
  }
  return v;
}

// No resource near its peak: what held the warps back.
Verdict idle_verdict(const BoundInputs& in) {
  const double work = double(in.cycles - std::min(in.cycles, in.start_cycles));
  const std::string top = "; busiest unit " + highest_unit(in.use);
  const bool books = !std::isnan(in.idle);  // a launch that overlapped others has none
  if (books && work > 0) {
    // Scheduler-cycles without a warp after the start (the start itself has none anywhere).
    const double idle_after_start =
        std::max(0.0, (in.idle * double(in.cycles) - double(in.cycles - work)) / work);
    const double w = waves(in.theoretical, in.blocks, in.sms);
    if (idle_after_start >= kTailIdleShare) {
      const bool few = w < 1;
      Verdict v{Limiter::Tail, {}, {}};
      const std::string blocks = format("%.0f block", double(in.blocks)) + (in.blocks == 1 ? "" : "s");
      v.evidence = few ? "too few blocks: " + blocks + format(" fill %.2g of one wave", w)
                       : format("last partial wave: %.2f waves", w);
      v.sentence = (few ? "too few blocks: the grid's " + blocks +
                              format(" fill %.2g of one wave (%.0f SMs x %.0f)", w, in.sms, in.theoretical.blocks_per_sm)
                        : format("a partial last wave: %.2f waves of blocks", w)) +
                   "; the schedulers have no warp " + percent(idle_after_start) + " of the time after the start" + top;
      return v;
    }
    if (in.barrier >= kBarrierShare) {
      Verdict v{Limiter::Barrier, "warps at __syncthreads " + percent(in.barrier), {}};
      v.sentence = "every warp of a scheduler waits at __syncthreads in " + percent(in.barrier) +
                   " of scheduler-cycles" + top;
      return v;
    }
  }
  Verdict v{Limiter::Latency, {}, {}};
  const double max_warps = in.theoretical.max_warps_per_sm;
  const std::string limit = std::string(limit_name(in.theoretical.limit));
  if (!books) {
    v.evidence = "overlapped: no stall breakdown";
    v.sentence = "no resource reaches 60% of its peak; the launch overlapped others, so its stalls are not its own" + top;
    return v;
  }
  const double warps = in.achieved_occupancy * max_warps;
  const std::string waiting = in.memory_wait >= in.alu_wait ? "memory" : "arithmetic results";
  const double wait = std::max(in.memory_wait, in.alu_wait);
  if (in.achieved_occupancy < kFewWarps) {
    v.evidence = format("too few warps: %.1f of %.0f", warps, max_warps) +
                 (in.theoretical.fraction() < 1 ? " (" + limit + format(" limit: %.0f)", in.theoretical.warps_per_sm) : "");
    v.sentence = format("too few warps to hide latency: %.1f of the SM's %.0f warp slots are in use on average",
                        warps, max_warps) +
                 (in.theoretical.fraction() < 1
                      ? format(" (theoretical %.0f, limited by ", in.theoretical.warps_per_sm) + limit + ")"
                      : std::string(" (theoretical: all)")) +
                 "; schedulers wait on " + waiting + " " + percent(wait) + " of the time" + top;
  } else {
    v.evidence = format("too little ILP: %.1f warps, issuing %.0f%%", warps, 100 * in.issued);
    v.sentence = format("too little ILP: %.1f of %.0f warp slots are in use, yet the schedulers issue in only",
                        warps, max_warps) +
                 " " + percent(in.issued) + " of their cycles and wait on " + waiting + " " + percent(wait) + top;
  }
  return v;
}

}  // namespace

std::string_view limiter_name(Limiter l) {
  switch (l) {
    case Limiter::DramBandwidth: return "dram-bandwidth";
    case Limiter::L2Bandwidth: return "l2-bandwidth";
    case Limiter::L1Lsu: return "l1-lsu";
    case Limiter::SharedBanks: return "shared-banks";
    case Limiter::Issue: return "issue";
    case Limiter::Latency: return "latency";
    case Limiter::Barrier: return "barrier";
    case Limiter::Tail: return "tail";
    case Limiter::Launch: return "launch";
  }
  return "?";
}

double waves(const Occupancy& occupancy, std::uint64_t blocks, std::uint32_t sms) {
  const double per_wave = double(occupancy.blocks_per_sm) * sms;
  return per_wave > 0 ? double(blocks) / per_wave : 0.0;
}

Verdict judge(const BoundInputs& in) {
  if (in.cycles > 0 && 2 * in.start_cycles >= in.cycles) {
    Verdict v{Limiter::Launch, {}, {}};
    const double start_us = double(in.start_cycles) / in.cycles_per_us, all_us = double(in.cycles) / in.cycles_per_us;
    v.evidence = format("start %.2f us of %.2f us", start_us, all_us);
    v.sentence = format("the kernel's start (%.2f us to its first block) takes %.0f%% of its %.2f us", start_us,
                        100 * start_us / all_us, all_us);
    return v;
  }
  const Utilization& u = in.use;
  const Busiest dram = busiest(u, {Resource::Dram}), l2 = busiest(u, {Resource::L2});
  const Busiest lsu = busiest(u, {Resource::L1Wavefronts, Resource::L1Sectors, Resource::PipeLdSt});
  const Busiest shared = busiest(u, {Resource::Shared});
  const Busiest issue = busiest(u, {Resource::Issue, Resource::PipeInt, Resource::PipeFp32, Resource::PipeFp64,
                                    Resource::PipeSfu, Resource::PipeTensor, Resource::PipeControl});
  // Shared-memory passes take LD/ST issue slots too: the LSU is shared memory's when those
  // outnumber the passes through L1.
  const bool shared_side = u[Resource::Shared] > std::max(u[Resource::L1Wavefronts], u[Resource::L1Sectors]);
  struct Candidate {
    Limiter limiter;
    Busiest b;
  };
  const Candidate candidates[] = {{Limiter::DramBandwidth, dram},
                                  {Limiter::L2Bandwidth, l2},
                                  {shared_side ? Limiter::SharedBanks : Limiter::L1Lsu,
                                   shared_side ? Busiest{Resource::Shared, std::max(shared.share, lsu.share)} : lsu},
                                  {Limiter::Issue, issue}};
  const Candidate* top = &candidates[0];
  for (const auto& c : candidates)
    if (c.b.share > top->b.share) top = &c;
  if (top->b.share >= kSaturatedShare) return throughput_verdict(in, top->limiter, top->b);
  return idle_verdict(in);
}

}  // namespace warpsim::models
