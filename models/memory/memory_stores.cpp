// Global stores and atomics (S3.4): to L2 in 32-byte segments, invalidating or (l1.stores_allocate)
// allocating L1 lines on the way (gpu_memory_system.hpp).
#include "models/memory/gpu_memory_system.hpp"

namespace warpsim::models::gpu_memory {

MemoryAccessResult GpuMemorySystem::global_store(std::uint32_t sm, std::uint32_t kernel_slot, sim::Cycle now) {
  ++counters_.gst_requests;
  counters_.gst_sectors += sectors_.count;
  counters_.gst_bytes_requested += sectors_.useful_bytes();
  counters_.gst_bytes_moved += std::uint64_t{sectors_.count} * memory::kSectorBytes;
  std::uint32_t passes = 0;
  if (sectored_l1_ && specs_.l1.caches_global) {
    counters_.gst_transactions += sectors_.count;
    counters_.l1_sector_lookups += sectors_.count;  // write-through sectors miss in ncu's count
    passes = sectors_.distinct_blocks(kLsuLineBytes);
  } else {
    memory::plan_store_transactions(sectors_, stores_);
    counters_.gst_transactions += stores_.count;
    passes = stores_.count;
  }
  const sim::Cycle t = occupy_l1(sm, now, passes);
  if (specs_.l1.stores_allocate && specs_.l1.caches_global)
    counters_.l1_sector_hits += allocate_in_l1(sm, t);
  else
    invalidate_in_l1(sm);
  sim::Cycle ready = t + 1;
  for_each_l2_request(
      kernel_slot, sectors_.count, [&](std::uint32_t k) { return sectors_.address[k]; },
      [&](std::uint32_t first, std::uint32_t last, std::uint64_t line_address, std::uint32_t sectors, L2Hint hint) {
        std::uint32_t partial = 0;  // the sectors only partly written, and their bytes
        std::uint32_t written[SectorCache::kMaxSectorsPerLine] = {};
        for (std::uint32_t k = first; k < last; ++k) {
          const std::uint32_t s = l2_sector_of(sectors_.address[k]);
          written[s] |= sectors_.used[k];
          if (sectors_.used[k] != kWholeSector) partial |= 1u << s;
        }
        ready = std::max(ready, l2_.write_sectors(line_address, sectors, partial, t, hint, near(sm), written));
      });
  return finish(ready, passes);
}

std::uint32_t GpuMemorySystem::allocate_in_l1(std::uint32_t sm, sim::Cycle t) {
  SectorCache& l1 = l1_[sm];
  if (l1.empty_geometry()) return 0;
  std::uint32_t hits = 0;
  for_each_line_run(l1, [&](std::uint32_t begin, std::uint32_t end, std::uint64_t line_number) {
    bool present = false;
    const SectorCache::Line line = l1.find_or_install(line_number, LineClass::Normal, present);
    if (present) hits += end - begin;
    const std::uint32_t written = sectors_written_whole(l1, begin, end);
    if (written != 0) l1.fill_sectors(line, written, t);
  });
  return hits;
}

std::uint32_t GpuMemorySystem::sectors_written_whole(const SectorCache& cache, std::uint32_t begin, std::uint32_t end) const {
  std::uint32_t whole_pieces[SectorCache::kMaxSectorsPerLine] = {};
  for (std::uint32_t k = begin; k < end; ++k)
    if (sectors_.used[k] == kWholeSector) ++whole_pieces[cache.sector_of(sectors_.address[k])];
  std::uint32_t written = 0;
  const std::uint32_t pieces_per_sector = cache.sector_bytes() / memory::kSectorBytes;
  for (std::uint32_t s = 0; s < cache.sectors_per_line(); ++s)
    if (whole_pieces[s] == pieces_per_sector) written |= 1u << s;
  return written;
}

void GpuMemorySystem::invalidate_in_l1(std::uint32_t sm) {
  SectorCache& l1 = l1_[sm];
  if (l1.empty_geometry()) return;
  for_each_line_run(l1, [&](std::uint32_t, std::uint32_t, std::uint64_t line_number) {
    const SectorCache::Line line = l1.find(l1.default_set(line_number), line_number);
    if (line.found()) l1.invalidate(line);
  });
}

MemoryAccessResult GpuMemorySystem::global_atomic(std::uint32_t sm, std::uint32_t kernel_slot, sim::Cycle now) {
  const std::uint32_t passes = sectors_.distinct_blocks(kLsuLineBytes);
  const sim::Cycle t = occupy_l1(sm, now, passes);
  invalidate_in_l1(sm);
  sim::Cycle ready = t + 1;
  for (std::uint32_t i = 0; i < sectors_.count; ++i) {
    const std::uint64_t a = sectors_.address[i];
    ready = std::max(ready, l2_read(sm, kernel_slot, a, t));
    l2_.write(a, t, property(kernel_slot, a), near(sm));
  }
  return finish(ready, passes);
}

}  // namespace warpsim::models::gpu_memory
