// The memory system's kernels, coalescing, local, shared and constant memory, and counters
// (gpu_memory_system.hpp); global loads are memory_loads.cpp, stores and atomics memory_stores.cpp.
#include "models/memory/gpu_memory_system.hpp"

namespace warpsim::models::gpu_memory {

void GpuMemorySystem::register_stats(sim::StatsRegistry& stats) {
  MemoryCounters& c = counters_;
  stats.add("gpu.mem.gld_requests", c.gld_requests, "requests", "global load warp instructions with an active lane");
  stats.add("gpu.mem.gld_sectors", c.gld_sectors, "sectors", "32-byte sectors global loads touch");
  stats.add("gpu.mem.gld_transactions", c.gld_transactions, "transactions", "global load accesses to the next level");
  stats.add("gpu.mem.gld_bytes_requested", c.gld_bytes_requested, "bytes", "distinct bytes global loads use");
  stats.add("gpu.mem.gld_bytes_moved", c.gld_bytes_moved, "bytes", "bytes global load transactions carry");
  stats.add("gpu.mem.gst_requests", c.gst_requests, "requests", "global store warp instructions with an active lane");
  stats.add("gpu.mem.gst_sectors", c.gst_sectors, "sectors", "32-byte sectors global stores touch");
  stats.add("gpu.mem.gst_transactions", c.gst_transactions, "transactions", "global store transactions to L2");
  stats.add("gpu.mem.gst_bytes_requested", c.gst_bytes_requested, "bytes", "distinct bytes global stores write");
  stats.add("gpu.mem.gst_bytes_moved", c.gst_bytes_moved, "bytes", "bytes global store transactions carry");
  stats.add("gpu.l1.sector_hits", c.l1_sector_hits, "sectors", "L1 / read-only cache sector lookups that hit");
  stats.add("gpu.l1.sector_lookups", c.l1_sector_lookups, "sectors", "L1 / read-only cache sector lookups");
  stats.add("gpu.l2.sector_hits", l2_.sector_hits_counter(), "sectors", "L2 sector lookups that hit");
  stats.add("gpu.l2.sector_lookups", l2_.sector_lookups_counter(), "sectors", "L2 sector lookups");
  stats.add("gpu.dram.read_bytes", dram_->bytes_read_counter(), "bytes", "bytes read from DRAM");
  stats.add("gpu.dram.write_bytes", dram_->bytes_written_counter(), "bytes", "bytes written to DRAM");
  stats.add("gpu.mem.shared_requests", c.shared_requests, "requests", "shared-memory warp instructions");
  stats.add("gpu.mem.shared_bank_conflicts", c.shared_bank_conflicts, "wavefronts",
            "extra shared-memory passes caused by bank conflicts (S3.10)");
  stats.add("gpu.mem.replays", c.replays, "passes", "extra LD/ST passes beyond the first (S3.1)");
  stats.add("gpu.l1.wavefronts", c.l1_wavefronts, "wavefronts", "LSU passes through L1, one 128-byte line each");
  stats.add("gpu.mem.shared_wavefronts", c.shared_wavefronts, "wavefronts",
            "shared-memory passes, bank conflicts included (S3.10)");
}

void GpuMemorySystem::prefetch(std::uint32_t sm, const traces::Instruction& inst, const memory::ByteRange& range) const {
  if (inst.active_mask == 0 || (inst.space != MemSpace::Global && inst.space != MemSpace::None)) return;
  // The SM-side cache the access will look up: a load's path (none for L2-only loads); stores
  // and atomics find their line in L1 to allocate or invalidate it.
  const LoadPath path =
      inst.mem_op == MemOp::Load ? load_path_[static_cast<int>(inst.cache_op)] : LoadPath::L1Lines;
  const SectorCache* near =
      path == LoadPath::ReadOnly ? &readonly_[sm] : path == LoadPath::L2Only ? nullptr : &l1_[sm];
  if (near != nullptr && near->empty_geometry()) near = nullptr;
  auto load = [&](std::uint64_t address) {
    if (near != nullptr) near->prefetch_set(near->default_set(near->line_of(address)));
    l2_.prefetch(address);
  };
  // Streaming kernels' accesses are contiguous: lanes spanning less than a line touch at most
  // the lines of the first and last lane. Otherwise every lane whose line differs from the
  // previous lane's.
  const std::uint64_t first = range.empty() ? inst.address(__builtin_ctz(inst.active_mask)) : range.lo;
  const std::uint64_t last = range.empty() ? inst.address(31 - __builtin_clz(inst.active_mask)) : range.hi - 1;
  if (last >= first && last - first < kLsuLineBytes) {
    load(first);
    if (last / kLsuLineBytes != first / kLsuLineBytes) load(last);
    return;
  }
  std::uint64_t previous_line = ~std::uint64_t{0};
  for (std::uint32_t mask = inst.active_mask; mask != 0; mask &= mask - 1) {
    const std::uint64_t a = inst.address(__builtin_ctz(mask));
    if (a / kLsuLineBytes != previous_line) load(a);
    previous_line = a / kLsuLineBytes;
  }
}

CoalescedAccess GpuMemorySystem::coalesce(const Instruction& inst) const {
  const bool store_transactions = inst.mem_op == MemOp::Store && inst.space != MemSpace::Local &&
                                  !(sectored_l1_ && specs_.l1.caches_global);
  CoalescedAccess out;
  out.range = memory::contiguous_range(inst);
  if (!out.range.empty() && !store_transactions) {
    out.passes = std::max<std::uint32_t>(1, out.range.blocks(kLsuLineBytes));
    return out;
  }
  memory::SectorSet sectors;
  if (out.range.empty())
    memory::gather_sectors(inst, sectors);
  else
    memory::gather_range(out.range, sectors);
  if (store_transactions) {
    memory::StoreTransactionList stores;
    memory::plan_store_transactions(sectors, stores);
    out.passes = std::max<std::uint32_t>(1, stores.count);
  } else {
    out.passes = std::max<std::uint32_t>(1, sectors.distinct_blocks(kLsuLineBytes));
  }
  return out;
}

MemoryAccessResult GpuMemorySystem::local(std::uint32_t sm, const Instruction& inst, sim::Cycle now) {
  const std::uint32_t passes = sectors_.distinct_blocks(kLsuLineBytes);
  const sim::Cycle t = occupy_l1(sm, now, passes);
  sim::Cycle ready = t + 1;
  SectorCache& l1 = l1_[sm];
  if (inst.mem_op == MemOp::Load && !l1.empty_geometry() && sectored_l1_)
    return finish(std::max(ready, sectors_through(sm, l1, kNoWindow, t, LineClass::Normal)), passes);
  for (std::uint32_t i = 0; i < sectors_.count; ++i) {
    const std::uint64_t a = sectors_.address[i];
    if (inst.mem_op != MemOp::Load) {
      ready = std::max(ready, l2_.write(a, t, L2Hint::Default, near(sm)));
    } else if (l1.empty_geometry()) {
      ready = std::max(ready, l2_read(sm, kNoWindow, a, t));
    } else {
      ready = std::max(ready, line_through(sm, l1, kNoWindow, l1.line_of(a) * l1.line_bytes(), t));
    }
  }
  return finish(ready, passes);
}

MemoryAccessResult GpuMemorySystem::shared(const Instruction& inst, sim::Cycle now, MemoryCounters& counters) const {
  const memory::SharedAccessShape shape = memory::shared_bank_shape(inst);
  ++counters.shared_requests;
  counters.shared_bank_conflicts += shape.conflicts();
  const std::uint32_t passes = std::max<std::uint32_t>(1, shape.passes);
  counters.shared_wavefronts += passes;
  return finish(counters, now + specs_.shared_latency + (passes - 1), passes);
}

MemoryAccessResult GpuMemorySystem::constant(const Instruction& inst, sim::Cycle now, MemoryCounters& counters) const {
  // Nearly every constant load is uniform (a kernel parameter): one pass, one address.
  if (inst.uniform_address || uniform_address(inst)) return finish(counters, now + specs_.l1.hit_latency, 1);
  std::uint64_t seen[traces::kWarpSize];
  std::uint32_t distinct = 0;
  std::uint32_t mask = inst.active_mask;
  while (mask != 0) {
    const std::uint64_t a = inst.address(__builtin_ctz(mask));
    mask &= mask - 1;
    if (std::find(seen, seen + distinct, a) == seen + distinct) seen[distinct++] = a;
  }
  return finish(counters, now + specs_.l1.hit_latency + (distinct - 1), distinct);
}

void GpuMemorySystem::take_sm_counts(std::uint32_t sm) {
  if (sm_counts_.empty()) return;
  // Charged and added run by run, as each access would have charged its slot and counted.
  std::vector<SmCounts::Run>& runs = sm_counts_[sm].runs;
  for (const SmCounts::Run& run : runs) {
    charge(run.slot);
    sim::add_counts(counters_, run.counts);
  }
  runs.clear();
}

void GpuMemorySystem::memcpy_to_device(std::uint64_t address, std::uint64_t bytes) {
  // The copy lands in DRAM: any cached copy of those bytes is stale.
  l2_.invalidate(address, bytes);
}

}  // namespace warpsim::models::gpu_memory

namespace warpsim::models {

std::unique_ptr<MemorySystem> make_memory_system(const MemorySystemSpecs& specs, sim::StatsRegistry& stats,
                                                 std::uint64_t seed) {
  return std::make_unique<gpu_memory::GpuMemorySystem>(specs, stats, seed);
}

}  // namespace warpsim::models
