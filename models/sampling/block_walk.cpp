#include "models/sampling/block_walk.hpp"

#include "sim/attribution.hpp"
#include "traces/traced_kernel_source.hpp"

namespace warpsim::models::sampling {
namespace {

// splitmix64's finaliser: spreads nearby pcs over all 64 bits.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The GPU the walk's memory system models: the counts it keeps follow from the addresses alone,
// whatever the caches hold, so one SM and an L2 of one set per slice give the same counts as the
// whole GPU, without its hundred megabytes of cache tags to build.
MemorySystemSpecs counting_specs(const Arch& arch) {
  MemorySystemSpecs specs = memory_system_specs(arch);
  specs.sms = 1;
  specs.l2.size_bytes = std::uint64_t{specs.l2.slices} * specs.l2.ways * specs.l2.line_bytes;
  return specs;
}

}  // namespace

bool operator==(const StreamCounts& a, const StreamCounts& b) {
  using Words = sim::CountWords<StreamCounts>::Words;
  return std::bit_cast<Words>(a) == std::bit_cast<Words>(b);
}

MemoryCounters exact_memory_counts(const MemoryCounters& all) {
  MemoryCounters m = all;
  m.l1_sector_hits = m.l1_sector_lookups = 0;
  m.l2_sector_hits = m.l2_sector_lookups = 0;
  m.dram_read_bytes = m.dram_write_bytes = 0;
  return m;
}

BlockWalker::BlockWalker(const Arch& arch, std::uint64_t seed)
    : memory_(make_memory_system(counting_specs(arch), stats_, seed)) {}

void BlockWalker::begin_launch(const traces::KernelInfo& info) {
  memory_->begin_kernel(++slot_, info);
}

StreamCounts BlockWalker::walk(traces::KernelSource& source, std::uint64_t id) {
  StreamCounts c;
  const MemoryCounters before = memory_->counters();
  for (auto& warp : source.open_block(id)) {
    ++c.warps;
    while (warp->next(inst_)) {
      // As the SM counts at issue (Sm::issue): every instruction, and a memory access for each
      // memory instruction with an active lane.
      ++c.instructions;
      c.active_lanes += static_cast<std::uint64_t>(__builtin_popcount(inst_.active_mask));
      c.pc_mix += mix(inst_.pc);
      if (inst_.is_memory() && inst_.active_mask != 0) memory_->access(0, slot_, inst_, ++now_);
    }
  }
  c.memory = exact_memory_counts(sim::counts_since(memory_->counters(), before));
  return c;
}

LaunchStreams BlockWalker::walk_launch(traces::KernelSource& source) {
  using Words = sim::CountWords<StreamCounts>::Words;
  LaunchStreams out;
  traces::for_each_block(source, [&](std::uint64_t id) {
    const StreamCounts c = walk(source, id);
    sim::add_counts(out.total, c);
    std::uint64_t h = mix(id);
    for (std::uint64_t word : std::bit_cast<Words>(c)) h = mix(h ^ word);
    out.blocks_mix += h;
  });
  return out;
}

}  // namespace warpsim::models::sampling
