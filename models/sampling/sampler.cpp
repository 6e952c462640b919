#include "models/sampling/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "models/occupancy.hpp"
#include "models/sampling/block_walk.hpp"
#include "models/sampling/count_math.hpp"
#include "sim/attribution.hpp"

namespace warpsim::models::sampling {
namespace {

// The counts of `walked` stand for the exact counts of `credited`, whose other counts stay.
void take_exact(GpuTotals& gpu, MemoryCounters& memory, const StreamCounts& walked) {
  gpu.warp_instructions = walked.instructions;
  gpu.active_lanes = walked.active_lanes;
  memory = sim::counts_since(memory, exact_memory_counts(memory));
  sim::add_counts(memory, walked.memory);
}

std::string describe_block(std::uint64_t id, const StreamCounts& c) {
  std::ostringstream out;
  out << "block " << id << " (" << c.warps << " warps, " << c.instructions << " instructions, "
      << c.memory.gld_sectors + c.memory.gst_sectors << " sectors)";
  return out.str();
}

}  // namespace

Sampler::Sampler(const Arch& arch, Gpu& gpu, std::uint64_t seed, SamplingRules rules)
    : arch_(arch), gpu_(gpu), seed_(seed), rules_(rules), repeats_(rules.repeats) {
  gpu_.observe_launches(this);
  gpu_.gigathread().observe_retirements(this);
}

BlockWalker& Sampler::walker_for(std::uint32_t slot) {
  if (!walker_) walker_ = std::make_unique<BlockWalker>(arch_, seed_);
  if (walker_slot_ != slot) walker_->begin_launch(gpu_.gigathread().kernel(slot).info);
  walker_slot_ = slot;
  return *walker_;
}

bool Sampler::alone(std::uint32_t slot) const {
  const GigaThread& g = gpu_.gigathread();
  for (std::uint32_t k = 0; k < g.kernel_count(); ++k)
    if (k != slot && !g.kernel(k).done()) return false;
  return true;
}

void Sampler::fall_back(std::uint32_t slot, FallbackKind kind, std::string why) {
  Launch& l = launches_[slot];
  l.fallback_kind = kind;
  l.record.fallback = std::move(why);
  l.measure.reset();
}

void Sampler::launched(std::uint32_t slot) {
  const KernelRun& k = gpu_.gigathread().kernel(slot);
  const sim::Cycle now = k.start;
  // The launches that ran before this one, and ran alone, are what a repeat is compared with.
  for (std::uint32_t earlier = 0; earlier < slot; ++earlier) {
    Launch& e = launches_[earlier];
    if (e.registered || !gpu_.gigathread().kernel(earlier).done()) continue;
    e.registered = true;
    if (!e.record.whole_launch && gpu_.launch_totals(earlier).alone)
      repeats_.ran(earlier, gpu_.gigathread().kernel(earlier).info, double(launch_totals(earlier).gpu.cycles));
  }
  Launch& l = launches_.emplace_back();
  l.record.blocks = k.total_blocks;
  l.record.offset_before = credited_;
  if (!alone(slot)) return fall_back(slot, FallbackKind::SharedGpu, "it shared the GPU with another launch");
  if (skip_repeat(slot, now)) return;

  const Occupancy occ = compute_occupancy(
      arch_.sm,
      {static_cast<std::uint32_t>(k.info.threads_per_block()), k.info.registers_per_thread,
       k.info.shared_bytes_per_block},
      arch_.preset);
  l.wave = std::uint64_t{occ.blocks_per_sm} * arch_.gpu.sms;
  // The least a launch needs: the warm-up, the steady windows after it, the wave in flight and
  // the tail, which must leave min_skip_share of it to skip.
  const double detailed = rules_.warm.min_waves + rules_.warm.settle_waves + rules_.steady.min_windows + 1.0 +
                          rules_.tail_waves;
  const auto waves_needed = static_cast<std::uint64_t>(std::ceil(detailed / (1.0 - rules_.min_skip_share)));
  if (k.total_blocks < waves_needed * l.wave) {
    std::ostringstream why;
    why << "its " << k.total_blocks << " blocks are " << std::setprecision(2) << double(k.total_blocks) / double(l.wave)
        << " waves of " << l.wave << "; sampling needs at least " << waves_needed;
    return fall_back(slot, FallbackKind::FewWaves, why.str());
  }
  l.alike_blocks = k.source->blocks_alike();
  l.measure = std::make_unique<WaveMeasure>(arch_.l2, l.wave, rules_.warm, rules_.steady);
  l.measure->add(gpu_.running_totals(slot, now), 0, now);
}

void Sampler::blocks_retired(std::uint32_t slot, sim::Cycle now) {
  Launch& l = launches_[slot];
  if (!l.measure) return;
  const KernelRun& k = gpu_.gigathread().kernel(slot);
  if (!alone(slot)) {
    if (l.pending) settle(slot, nullptr);
    if (l.record.sampled()) return l.measure.reset();
    return fall_back(slot, FallbackKind::SharedGpu, "another launch started beside it");
  }
  l.measure->retired(k.retired_blocks, now);
  if (k.retired_blocks < l.measure->next_boundary() && !k.done()) return;
  l.measure->add(gpu_.running_totals(slot, now), k.retired_blocks, now);
  const std::uint64_t remaining = k.total_blocks - k.next_block;
  const std::uint64_t tail = std::uint64_t{rules_.tail_waves} * l.wave;
  // The first skip must leave out at least min_skip_share of the launch; later chunks a wave.
  const std::uint64_t least = l.record.sampled()
                                  ? std::uint64_t{rules_.min_skip_waves} * l.wave
                                  : std::max<std::uint64_t>(l.wave, std::uint64_t(rules_.min_skip_share * double(k.total_blocks)));
  if (remaining < tail + least) {
    // Too late to skip (more): a chunk skipped last keeps the rate measured before it.
    if (l.pending) settle(slot, nullptr);
    if (l.record.sampled()) return l.measure.reset();
    std::ostringstream why;
    why << "steady state did not come while " << std::setprecision(2) << 100 * rules_.min_skip_share
        << "% of its blocks were still to run, the least sampling leaves out: " << l.measure->describe();
    return fall_back(slot, FallbackKind::NeverSteady, why.str());
  }
  if (!l.measure->steady()) return;
  if (l.pending && !settle(slot, l.measure.get())) return;
  try_skip(slot, now);
}

void Sampler::try_skip(std::uint32_t slot, sim::Cycle now) {
  Launch& l = launches_[slot];
  const KernelRun& k = gpu_.gigathread().kernel(slot);
  const std::uint64_t remaining = k.total_blocks - k.next_block;
  // Whole waves, so that the tail keeps the full run's last partial wave. Blocks not alike by
  // construction may change speed later in the grid (persistKernel's two streams drift against
  // each other as its `%` wraps), so they are skipped a chunk at a time, each checked against
  // the rate measured after it.
  std::uint64_t skip = (remaining - std::uint64_t{rules_.tail_waves} * l.wave) / l.wave * l.wave;
  if (!l.alike_blocks) skip = std::min(skip, std::uint64_t{rules_.chunk_waves} * l.wave);
  StreamCounts walked;
  std::string why;
  if (!alike(slot, k.next_block, skip, walked, why)) {
    if (l.pending) settle(slot, nullptr);
    if (l.record.sampled()) return l.measure.reset();
    return fall_back(slot, FallbackKind::BlocksDiffer, why);
  }
  Chunk chunk{skip, l.measure->credit(skip), walked};
  l.record.skipped.push_back({k.next_block, skip});
  gpu_.gigathread().skip_blocks(slot, skip, now);
  if (l.alike_blocks) {
    credit(slot, chunk.blocks, chunk.before, chunk.walked);
    l.measure.reset();
  } else {
    l.pending = chunk;
    l.measure->restart(gpu_.running_totals(slot, now), k.retired_blocks, now);
  }
}

bool Sampler::settle(std::uint32_t slot, const WaveMeasure* after) {
  Launch& l = launches_[slot];
  const Chunk chunk = *l.pending;
  l.pending.reset();
  if (after == nullptr) {
    credit(slot, chunk.blocks, chunk.before, chunk.walked);
    return true;
  }
  // The rate may have moved anywhere inside the chunk: it is credited the mean of the rates
  // before and after it, with half their difference added to the error.
  const Credit later = after->credit(chunk.blocks);
  Credit mean;
  mean.gpu = chunk.before.gpu;
  sim::add_counts(mean.gpu, later.gpu);
  mean.gpu = scaled(mean.gpu, 1, 2);
  mean.memory = chunk.before.memory;
  sim::add_counts(mean.memory, later.memory);
  mean.memory = scaled(mean.memory, 1, 2);
  mean.cycles = mean.gpu.cycles;
  const double moved = double(later.cycles) - double(chunk.before.cycles);
  mean.error_cycles = std::max(chunk.before.error_cycles, later.error_cycles) + std::fabs(moved) / 2;
  credit(slot, chunk.blocks, mean, chunk.walked);
  const double change = moved / double(chunk.before.cycles);
  if (std::fabs(change) <= rules_.steady.drift) return true;
  // Not steady over the grid: the rest runs in detail.
  std::ostringstream note;
  note << "blocks took " << std::setprecision(2) << 100 * std::fabs(change) << (change > 0 ? "% longer" : "% less")
       << " after a skipped chunk than before it: the rest of the launch ran in full detail";
  l.record.note = note.str();
  l.measure.reset();
  return false;
}

void Sampler::credit(std::uint32_t slot, std::uint64_t blocks, Credit c, const StreamCounts& walked) {
  SampleRecord& r = launches_[slot].record;
  take_exact(c.gpu, c.memory, walked);
  c.gpu.cycles = 0;  // skipped_cycles carries them
  r.skipped_blocks += blocks;
  r.skipped_cycles += c.cycles;
  r.error_cycles += c.error_cycles;
  sim::add_counts(r.added.gpu, c.gpu);
  sim::add_counts(r.added.memory, c.memory);
  credited_ += c.cycles;
}

bool Sampler::alike(std::uint32_t slot, std::uint64_t first, std::uint64_t count, StreamCounts& skipped,
                    std::string& why) {
  Launch& l = launches_[slot];
  traces::KernelSource& source = *gpu_.gigathread().kernel(slot).source;
  // Blocks alike by construction: probes stand for the rest. Otherwise every skipped block is
  // read, which also surfaces a trace's errors and warnings as the full run would.
  const bool read_all = !l.alike_blocks;
  BlockWalker& walker = walker_for(slot);
  // The measured blocks, at the first skip: probes evenly spread over the ids of the steady
  // windows, in increasing order (a trace is reread from its start once to reach them).
  std::vector<std::uint64_t> measured;
  if (!l.reference) {
    const std::uint64_t span = std::min(first, std::uint64_t{rules_.steady.min_windows} * l.wave);
    for (std::uint32_t i = 0; i < rules_.reference_probes; ++i)
      measured.push_back(first - span + span * i / rules_.reference_probes);
    l.reference = {measured.front(), walker.walk(source, measured.front())};
  }
  const auto& [reference_id, reference] = *l.reference;
  auto differs = [&](std::uint64_t id, const StreamCounts& c) {
    // Where probes stand for the skipped blocks, they must match in every count; where every
    // skipped block is read and counted, the same warps, instruction count and basic-block
    // vector suffice (the definition of alike for traces).
    const bool same = read_all ? c.warps == reference.warps && c.instructions == reference.instructions &&
                                   c.pc_mix == reference.pc_mix
                             : c == reference;
    if (!same) why = describe_block(id, c) + " differs from " + describe_block(reference_id, reference);
    return !same;
  };
  for (std::size_t i = 1; i < measured.size(); ++i)
    if (differs(measured[i], walker.walk(source, measured[i]))) return false;
  skipped = StreamCounts{};
  if (read_all) {
    for (std::uint64_t id = first; id < first + count; ++id) {
      const StreamCounts c = walker.walk(source, id);
      if (differs(id, c)) return false;
      sim::add_counts(skipped, c);
    }
    return true;
  }
  // Consecutive probes catch counts that alternate from block to block (a block's bytes not a
  // multiple of a line), spread ones the rest.
  for (std::uint64_t id = first; id < first + std::min<std::uint64_t>(count, rules_.consecutive_probes); ++id)
    if (differs(id, walker.walk(source, id))) return false;
  for (std::uint32_t i = 0; i < rules_.probes; ++i) {
    const std::uint64_t id = first + (count - 1) * i / std::max<std::uint32_t>(1, rules_.probes - 1);
    if (differs(id, walker.walk(source, id))) return false;
  }
  skipped = scaled(reference, count);
  return true;
}

const LaunchStreams& Sampler::streams_of(std::uint32_t slot) {
  Launch& l = launches_[slot];
  if (!l.streams) {
    const KernelRun& k = gpu_.gigathread().kernel(slot);
    l.streams = walker_for(slot).walk_launch(*k.source);
  }
  return *l.streams;
}

bool Sampler::skip_repeat(std::uint32_t slot, sim::Cycle now) {
  const KernelRun& k = gpu_.gigathread().kernel(slot);
  const std::vector<std::uint32_t> references = repeats_.references(k.info);
  if (references.empty()) return false;
  const std::uint32_t last = references.back();
  if (!(streams_of(slot) == streams_of(last))) {
    repeats_.differed(k.info);
    return false;
  }
  const LaunchTotals like = launch_totals(last);
  SampleRecord& r = launches_[slot].record;
  r.whole_launch = true;
  r.skipped_blocks = k.total_blocks;
  r.skipped.push_back({0, k.total_blocks});
  r.skipped_cycles = static_cast<sim::Cycle>(std::llround(repeats_.mean_cycles(k.info)));
  r.error_cycles = repeats_.spread_cycles(k.info) + launches_[last].record.error_cycles;
  r.added.gpu = like.gpu;
  r.added.gpu.cycles = 0;  // skipped_cycles carries them
  r.added.memory = like.memory;
  take_exact(r.added.gpu, r.added.memory, streams_of(slot).total);
  credited_ += r.skipped_cycles;
  gpu_.gigathread().skip_blocks(slot, k.total_blocks, now);
  return true;
}

LaunchTotals Sampler::launch_totals(std::uint32_t slot) const {
  return with_skipped(gpu_.launch_totals(slot), launches_[slot].record);
}

GpuTotals Sampler::added_gpu() const {
  GpuTotals t;
  for (const Launch& l : launches_) {
    sim::add_counts(t, l.record.added.gpu);
    t.cycles += l.record.skipped_cycles;
  }
  return t;
}

MemoryCounters Sampler::added_memory() const {
  MemoryCounters m;
  for (const Launch& l : launches_) sim::add_counts(m, l.record.added.memory);
  return m;
}

std::vector<std::string> Sampler::warnings(const std::vector<std::uint32_t>& numbers) const {
  // One line per reason, naming the first launch it applies to.
  std::map<FallbackKind, std::pair<std::uint32_t, std::uint32_t>> by_kind;  // kind -> (first slot, count)
  for (std::uint32_t s = 0; s < launches_.size(); ++s) {
    const FallbackKind kind = launches_[s].fallback_kind;
    if (kind == FallbackKind::None) continue;
    auto [it, added] = by_kind.try_emplace(kind, s, 0);
    ++it->second.second;
  }
  std::vector<std::string> out;
  for (std::uint32_t s = 0; s < launches_.size(); ++s) {
    if (launches_[s].record.note.empty()) continue;
    const std::string which = launches_.size() == 1 ? ""
                                                    : " launch " + std::to_string(s < numbers.size() ? numbers[s] : s + 1) +
                                                          " (" + gpu_.gigathread().kernel(s).info.name + ")";
    out.push_back("sampling" + which + ": " + launches_[s].record.note);
  }
  for (const auto& [kind, first_count] : by_kind) {
    const auto [first, count] = first_count;
    std::ostringstream line;
    if (launches_.size() == 1) {
      line << "sampling fell back to full simulation: " << launches_[first].record.fallback;
    } else {
      line << "sampling: " << count << " of " << launches_.size() << " launches ran in full detail, e.g. launch "
           << (first < numbers.size() ? numbers[first] : first + 1) << " ("
           << gpu_.gigathread().kernel(first).info.name << "): " << launches_[first].record.fallback;
    }
    out.push_back(line.str());
  }
  return out;
}

}  // namespace warpsim::models::sampling
