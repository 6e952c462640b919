// The coalescing rules of SPEC S3.2-S3.4 and S3.10; see coalescer.hpp.
#include "models/memory/coalescer.hpp"

#include <algorithm>

namespace warpsim::models::memory {
namespace {

std::uint32_t byte_mask(std::uint32_t first, std::uint32_t length) {
  return static_cast<std::uint32_t>(((std::uint64_t{1} << length) - 1) << first);
}

// Insertion sort: warps are nearly always in address order already, so this is linear in
// practice and allocation-free.
template <class T, class Key>
void sort_small(T* items, std::uint32_t count, Key key) {
  for (std::uint32_t i = 1; i < count; ++i) {
    T item = items[i];
    std::uint32_t j = i;
    while (j > 0 && key(items[j - 1]) > key(item)) {
      items[j] = items[j - 1];
      --j;
    }
    items[j] = item;
  }
}

}  // namespace

namespace {
// The common coalesced case: one contiguous run of active lanes, lane k at base + k * width.
// The bytes used are then one range, and the sectors follow without sorting.
bool gather_linear(const traces::Instruction& inst, SectorSet& out) {
  const ByteRange range = contiguous_range(inst);
  if (range.empty()) return false;
  gather_range(range, out);
  return true;
}

// Any other set of lanes. One pass in lane order, merging into the last sector: warps nearly
// always walk addresses upwards, so the list comes out sorted and merged; a lane that goes
// backwards marks it for a final sort-and-merge.
void gather_lanes(const traces::Instruction& inst, SectorSet& out) {
  out.count = 0;
  bool sorted = true;
  const std::uint32_t width = inst.width == 0 ? 4 : inst.width;
  auto add = [&](std::uint64_t sector, std::uint32_t mask) {
    if (out.count > 0) {
      const std::uint64_t last = out.address[out.count - 1];
      if (sector == last) {
        out.used[out.count - 1] |= mask;
        return;
      }
      if (sector < last) sorted = false;
    }
    out.address[out.count] = sector;
    out.used[out.count] = mask;
    ++out.count;
  };
  std::uint32_t mask = inst.active_mask;
  while (mask != 0) {
    const int lane = __builtin_ctz(mask);
    mask &= mask - 1;
    const std::uint64_t addr = inst.address(lane);
    const std::uint64_t sector = addr & ~std::uint64_t{kSectorBytes - 1};
    const std::uint32_t offset = static_cast<std::uint32_t>(addr - sector);
    if (offset + width <= kSectorBytes) {
      add(sector, byte_mask(offset, width));
    } else {  // straddles a sector boundary (unaligned access)
      const std::uint32_t first = kSectorBytes - offset;
      add(sector, byte_mask(offset, first));
      add(sector + kSectorBytes, byte_mask(0, std::min(width - first, kSectorBytes)));
    }
  }
  if (sorted) return;
  struct Piece {
    std::uint64_t sector;
    std::uint32_t mask;
  };
  Piece pieces[kMaxSectors];
  const std::uint32_t n = out.count;
  for (std::uint32_t i = 0; i < n; ++i) pieces[i] = {out.address[i], out.used[i]};
  sort_small(pieces, n, [](const Piece& p) { return p.sector; });
  out.count = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (out.count > 0 && out.address[out.count - 1] == pieces[i].sector) {
      out.used[out.count - 1] |= pieces[i].mask;
    } else {
      out.address[out.count] = pieces[i].sector;
      out.used[out.count] = pieces[i].mask;
      ++out.count;
    }
  }
}
}  // namespace

ByteRange contiguous_range(const traces::Instruction& inst) {
  const std::uint32_t mask = inst.active_mask;
  if (mask == 0) return {};
  const std::uint64_t width = inst.width == 0 ? 4 : inst.width;
  const int first = __builtin_ctz(mask);
  const std::uint32_t run = mask >> first;
  if ((run & (run + 1)) != 0) return {};  // holes in the mask
  const int lanes = __builtin_popcount(mask);
  const std::uint64_t base = inst.addr[static_cast<std::size_t>(first)];
  if (inst.lane_linear) return {base, base + std::uint64_t(lanes) * width};  // the producer says so
  if (mask == traces::kFullMask) {
    // The usual full warp: one pass without a branch per lane, which the compiler vectorises.
    std::uint64_t differs = 0;
    for (std::size_t k = 1; k < traces::kWarpSize; ++k) differs |= (inst.addr[k] - inst.addr[k - 1]) ^ width;
    if (differs != 0) return {};
  } else {
    for (int k = 1; k < lanes; ++k)
      if (inst.addr[static_cast<std::size_t>(first + k)] != base + std::uint64_t(k) * width) return {};
  }
  return {base, base + std::uint64_t(lanes) * width};
}

void gather_range(ByteRange range, SectorSet& out) {
  // The bytes [lo, hi): every sector from lo's to hi - 1's used whole, but for the bytes before
  // lo in the first and from hi on in the last.
  const std::uint64_t lo = range.lo, hi = range.hi;
  const std::uint64_t low = lo & ~std::uint64_t{kSectorBytes - 1}, last = (hi - 1) & ~std::uint64_t{kSectorBytes - 1};
  const auto count = static_cast<std::uint32_t>((last - low) / kSectorBytes) + 1;
  for (std::uint32_t i = 0; i < count; ++i) {
    out.address[i] = low + std::uint64_t{i} * kSectorBytes;
    out.used[i] = 0xffffffffu;
  }
  out.used[0] &= 0xffffffffu << (lo - low);
  out.used[count - 1] &= 0xffffffffu >> (kSectorBytes - (hi - last));
  out.count = count;
  out.bytes_used = static_cast<std::uint32_t>(hi - lo);
  out.consecutive = true;
}

void gather_sectors(const traces::Instruction& inst, SectorSet& out) {
  if (gather_linear(inst, out)) return;
  gather_lanes(inst, out);
  out.bytes_used = 0;
  for (std::uint32_t i = 0; i < out.count; ++i)
    out.bytes_used += static_cast<std::uint32_t>(__builtin_popcount(out.used[i]));
  out.consecutive = false;
}

void gather_blocks(const SectorSet& sectors, std::uint32_t block_bytes, BlockList& out) {
  out.count = 0;
  for (std::uint32_t i = 0; i < sectors.count; ++i) {
    const std::uint64_t block = sectors.address[i] / block_bytes * block_bytes;
    if (out.count == 0 || out.address[out.count - 1] != block) out.address[out.count++] = block;
  }
}

void plan_store_transactions(const SectorSet& sectors, StoreTransactionList& out) {
  out.count = 0;
  std::uint32_t i = 0;
  while (i < sectors.count) {
    // The touched segments of one 128-byte region, as a 4-bit mask (sectors are sorted).
    const std::uint64_t region = sectors.address[i] & ~std::uint64_t{127};
    std::uint32_t segments = 0;
    while (i < sectors.count && (sectors.address[i] & ~std::uint64_t{127}) == region) {
      segments |= 1u << ((sectors.address[i] - region) / kSectorBytes);
      ++i;
    }
    const bool low_half = (segments & 0b0011) != 0, high_half = (segments & 0b1100) != 0;
    if (low_half && high_half) {
      out.items[out.count++] = {region, 4};
      continue;
    }
    const std::uint64_t half = region + (high_half ? 64 : 0);
    const std::uint32_t pair = high_half ? segments >> 2 : segments;
    if (pair == 0b11) {
      out.items[out.count++] = {half, 2};
    } else {
      out.items[out.count++] = {half + (pair == 0b10 ? kSectorBytes : 0), 1};
    }
  }
}

SharedAccessShape shared_bank_shape(const traces::Instruction& inst) {
  // Distinct 4-byte words per bank. A 16-byte access covers 4 words; 32 lanes x 4 words = 128.
  std::uint64_t words[kWarpWords];
  std::uint32_t n = 0;
  const std::uint32_t width = inst.width == 0 ? 4 : inst.width;
  const std::uint32_t words_per_lane = std::max<std::uint32_t>(1, width / kSharedBankBytes);
  std::uint64_t lowest = ~std::uint64_t{0}, highest = 0;
  std::uint32_t mask = inst.active_mask;
  while (mask != 0) {
    const int lane = __builtin_ctz(mask);
    mask &= mask - 1;
    const std::uint64_t first = inst.address(lane) / kSharedBankBytes;
    lowest = std::min(lowest, first);
    highest = std::max(highest, first + words_per_lane - 1);
    for (std::uint32_t w = 0; w < words_per_lane; ++w) words[n++] = first + w;
  }
  SharedAccessShape shape;
  if (n == 0) return shape;
  std::uint32_t per_bank[kSharedBanks] = {};
  std::uint32_t distinct = 0;
  auto count_distinct = [&](std::uint64_t word) {
    ++distinct;
    shape.passes = std::max(shape.passes, ++per_bank[word % kSharedBanks]);
  };
  // Lanes on one word are served together (broadcast): a word counts once. A warp's words nearly
  // always lie within a few KB (a tile): a bitmap of their span tells the distinct ones apart in
  // one pass (sorting them was ~15% of matrixMul's simulation); a wider span is sorted.
  constexpr std::uint64_t kSpanWords = 4096;
  if (highest - lowest < kSpanWords) {
    std::uint64_t seen[kSpanWords / 64] = {};
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t at = words[i] - lowest;
      const std::uint64_t bit = std::uint64_t{1} << (at % 64);
      if (seen[at / 64] & bit) continue;
      seen[at / 64] |= bit;
      count_distinct(words[i]);
    }
  } else {
    sort_small(words, n, [](std::uint64_t w) { return w; });
    for (std::uint32_t i = 0; i < n; ++i)
      if (i == 0 || words[i] != words[i - 1]) count_distinct(words[i]);
  }
  shape.ideal_passes = (distinct + kSharedBanks - 1) / kSharedBanks;
  return shape;
}

}  // namespace warpsim::models::memory
