// Global loads (S3.2, S3.3, S3.6): through Fermi's 128-byte L1 lines, a sectored L1 or the
// read-only cache, or straight to L2 (gpu_memory_system.hpp).
#include "models/memory/gpu_memory_system.hpp"

namespace warpsim::models::gpu_memory {

sim::Cycle GpuMemorySystem::sectors_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, sim::Cycle t,
                           LineClass cls) {
  sim::Cycle ready = t;
  for_each_line_run(cache, [&](std::uint32_t begin, std::uint32_t end, std::uint64_t line) {
    ready = std::max(ready, line_sectors_through(sm, cache, kernel_slot, begin, end, line, t, cls));
  });
  return ready;
}

sim::Cycle GpuMemorySystem::line_sectors_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, std::uint32_t begin,
                                std::uint32_t end, std::uint64_t line_number, sim::Cycle t, LineClass cls) {
  counters_.l1_sector_lookups += end - begin;
  bool present = false;
  const SectorCache::Line line = cache.find_or_install(line_number, cls, present);
  std::uint32_t touched = 0, shared = 0;  // bit s: some piece / more than one piece falls in sector s
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t bit = 1u << cache.sector_of(sectors_.address[i]);
    shared |= touched & bit;
    touched |= bit;
  }
  const std::uint32_t valid = present ? cache.valid_mask(line) : 0;
  const std::uint32_t hit = touched & valid, missing = touched & ~valid;
  // Every piece hits but the first of each missing sector.
  counters_.l1_sector_hits += end - begin - static_cast<std::uint32_t>(__builtin_popcount(missing));
  sim::Cycle ready = t;
  if (hit != 0) ready = latest_fill(cache, line, hit, t + specs_.l1.hit_latency);
  if (missing == 0) return ready;
  if (sectors_are_l2_sectors(cache) && policy_.window(kernel_slot) == nullptr) {
    // One piece per sector, and the line's sectors are sectors of one L2 line (H100's L1): the
    // general walk below would make exactly one L2 request, for the missing sectors.
    const std::uint64_t line_address = line_number * cache.line_bytes();
    const std::uint64_t l2_line_address = l2_.line_of(line_address) * specs_.l2.line_bytes;
    const auto offset = static_cast<std::uint32_t>((line_address - l2_line_address) / memory::kSectorBytes);
    sim::Cycle l2_ready[SectorCache::kMaxSectorsPerLine];
    l2_.read_sectors(l2_line_address, missing << offset, t, L2Hint::Default, near(sm), l2_ready);
    cache.fill_sectors_each(line, missing, l2_ready + offset);
    for (std::uint32_t bits = missing; bits != 0; bits &= bits - 1)
      ready = std::max(ready, l2_ready[offset + static_cast<std::uint32_t>(__builtin_ctz(bits))]);
    return ready;
  }
  // The first piece of each missing sector, in address order, and its sector.
  std::uint32_t miss[SectorCache::kMaxSectorsPerLine], miss_sector[SectorCache::kMaxSectorsPerLine], misses = 0;
  for (std::uint32_t i = begin, pending = missing; pending != 0; ++i) {
    const std::uint32_t sector = cache.sector_of(sectors_.address[i]);
    if (!(pending >> sector & 1u)) continue;
    pending &= ~(1u << sector);
    miss[misses] = i;
    miss_sector[misses++] = sector;
  }
  for_each_l2_request(
      kernel_slot, misses, [&](std::uint32_t k) { return sectors_.address[miss[k]]; },
      [&](std::uint32_t first, std::uint32_t last, std::uint64_t line_address, std::uint32_t sectors, L2Hint hint) {
        sim::Cycle l2_ready[SectorCache::kMaxSectorsPerLine];
        l2_.read_sectors(line_address, sectors, t, hint, near(sm), l2_ready);
        for (std::uint32_t k = first; k < last; ++k) {
          const sim::Cycle arrives = l2_ready[l2_sector_of(sectors_.address[miss[k]])];
          cache.fill_sector(line, miss_sector[k], arrives);
          ready = std::max(ready, arrives);
        }
      });
  // The later pieces of a missing sector hit on the fill just recorded.
  const std::uint32_t riding = shared & missing;
  if (riding != 0) ready = latest_fill(cache, line, riding, std::max(ready, t + specs_.l1.hit_latency));
  return ready;
}

sim::Cycle GpuMemorySystem::line_through(std::uint32_t sm, SectorCache& cache, std::uint32_t kernel_slot, std::uint64_t line_address,
                        sim::Cycle t) {
  ++counters_.l1_sector_lookups;
  bool present = false;
  const SectorCache::Line line = cache.find_or_install(cache.line_of(line_address), LineClass::Normal, present);
  if (present && cache.sector_valid(line, 0)) {
    ++counters_.l1_sector_hits;
    return std::max<sim::Cycle>(t + specs_.l1.hit_latency, cache.sector_ready(line, 0));
  }
  sim::Cycle ready = t;
  const std::uint32_t pieces = cache.line_bytes() / specs_.l2.sector_bytes;
  for_each_l2_request(
      kernel_slot, pieces, [&](std::uint32_t k) { return line_address + std::uint64_t{k} * specs_.l2.sector_bytes; },
      [&](std::uint32_t first, std::uint32_t last, std::uint64_t l2_line_address, std::uint32_t sectors, L2Hint hint) {
        sim::Cycle l2_ready[SectorCache::kMaxSectorsPerLine];
        l2_.read_sectors(l2_line_address, sectors, t, hint, near(sm), l2_ready);
        for (std::uint32_t k = first; k < last; ++k)
          ready = std::max(ready, l2_ready[l2_sector_of(line_address + std::uint64_t{k} * specs_.l2.sector_bytes)]);
      });
  cache.fill_sector(line, 0, ready);
  return ready;
}

MemoryAccessResult GpuMemorySystem::global_load(std::uint32_t sm, std::uint32_t kernel_slot, const Instruction& inst,
                               sim::Cycle now) {
  const LoadPath path = load_path_[static_cast<int>(inst.cache_op)];
  const std::uint32_t passes = sectors_.distinct_blocks(kLsuLineBytes);
  ++counters_.gld_requests;
  counters_.gld_sectors += sectors_.count;
  counters_.gld_bytes_requested += sectors_.useful_bytes();
  sim::Cycle ready = now;
  const sim::Cycle t = occupy_l1(sm, now, passes);
  switch (path) {
    case LoadPath::L1Lines: {
      memory::gather_blocks(sectors_, specs_.l1.line_bytes, blocks_);
      counters_.gld_transactions += blocks_.count;
      counters_.gld_bytes_moved += std::uint64_t{blocks_.count} * specs_.l1.line_bytes;
      for (std::uint32_t i = 0; i < blocks_.count; ++i)
        ready = std::max(ready, line_through(sm, l1_[sm], kernel_slot, blocks_.address[i], t + i));
      break;
    }
    case LoadPath::L1Sectors:
    case LoadPath::ReadOnly: {
      SectorCache& cache = path == LoadPath::ReadOnly ? readonly_[sm] : l1_[sm];
      const LineClass cls = inst.cache_op == CacheOp::Streaming ? LineClass::Streaming : LineClass::Normal;
      count_sector_transactions(counters_.gld_transactions, counters_.gld_bytes_moved);
      ready = std::max(ready, sectors_through(sm, cache, kernel_slot, t, cls));
      break;
    }
    case LoadPath::L2Only: {
      // One request a line, as the L1 path's misses go (ncu: readOffsetNC's 262,144 sectors in
      // 65,536 requests at offset 0, h100-measured/store_hits.csv).
      count_sector_transactions(counters_.gld_transactions, counters_.gld_bytes_moved);
      for_each_l2_request(
          kernel_slot, sectors_.count, [&](std::uint32_t k) { return sectors_.address[k]; },
          [&](std::uint32_t first, std::uint32_t last, std::uint64_t line_address, std::uint32_t sectors, L2Hint hint) {
            sim::Cycle l2_ready[SectorCache::kMaxSectorsPerLine];
            l2_.read_sectors(line_address, sectors, t, hint, near(sm), l2_ready);
            for (std::uint32_t k = first; k < last; ++k)
              ready = std::max(ready, l2_ready[l2_sector_of(sectors_.address[k])]);
          });
      break;
    }
  }
  return finish(ready, passes);
}

}  // namespace warpsim::models::gpu_memory
