#pragma once
// The coalescer: which sectors, lines and transactions one warp memory instruction needs (SPEC
// S3.1-S3.6). Pure functions of the instruction, with no timing and no cache state, so every rule
// can be unit-tested on its own and the memory system only walks the lists they return.
#include <array>
#include <cstdint>

#include "traces/instruction.hpp"

namespace warpsim::models::memory {

// 32-byte sectors touched by one warp instruction, ascending by address, each with the bytes
// of it the active lanes use (for gld/gst efficiency, S3.7). 32 lanes x 16 bytes can touch at
// most 32 x 2 sectors when misaligned, so a fixed array suffices (no allocation per access).
inline constexpr std::uint32_t kSectorBytes = 32;
inline constexpr int kMaxSectors = 64;

struct SectorSet {
  std::uint32_t count = 0;
  std::array<std::uint64_t, kMaxSectors> address{};  // sector-aligned byte address
  std::array<std::uint32_t, kMaxSectors> used{};     // byte mask: bit b = byte b of the sector is accessed
  // Set by gather_sectors with the list: the bytes used in all, and whether the sectors are
  // consecutive (a contiguous run of lanes), so that neither question below walks the list again.
  std::uint32_t bytes_used = 0;
  bool consecutive = false;

  // Bytes the instruction asks for, counting a byte that several lanes touch once: all lanes on
  // one 4-byte word use 4 bytes of a 32-byte sector, 12.5% (S3.3).
  std::uint32_t useful_bytes() const { return bytes_used; }
  // Distinct aligned blocks of `block_bytes` (128: L1 lines, S3.2) the sectors fall in. Inline:
  // the memory system asks for every instruction, and its 128 then shifts instead of dividing.
  std::uint32_t distinct_blocks(std::uint32_t block_bytes) const {
    if (count == 0) return 0;
    if (consecutive && block_bytes % kSectorBytes == 0)  // every block from the first to the last
      return static_cast<std::uint32_t>(address[count - 1] / block_bytes - address[0] / block_bytes) + 1;
    std::uint32_t blocks = 0;
    std::uint64_t last = ~std::uint64_t{0};
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t block = address[i] / block_bytes;
      blocks += block != last;
      last = block;
    }
    return blocks;
  }
};

// The sectors of the active lanes of `inst` (address and width per lane). Lanes whose access
// straddles a sector boundary touch both sectors.
void gather_sectors(const traces::Instruction& inst, SectorSet& out);

// The bytes [lo, hi) of an instruction whose active lanes are one run of consecutive lanes at
// consecutive addresses (lane k at base + k * width): the common coalesced access, whose sectors
// follow from its two ends. An SM that coalesces a global access when it issues keeps only this
// pair instead of 32 addresses until the memory system takes the access (models/core/access_log.hpp).
struct ByteRange {
  std::uint64_t lo = 0, hi = 0;
  bool empty() const { return lo == hi; }
  // Distinct aligned blocks of `block_bytes` the range touches (a non-empty range).
  std::uint32_t blocks(std::uint32_t block_bytes) const {
    return static_cast<std::uint32_t>((hi - 1) / block_bytes - lo / block_bytes) + 1;
  }
};
// The range of `inst` if its active lanes form such a run, else an empty range.
ByteRange contiguous_range(const traces::Instruction& inst);
// The sectors of a non-empty range, as gather_sectors gives them for its instruction.
void gather_range(ByteRange range, SectorSet& out);

// Distinct aligned blocks (lines) of `block_bytes` touched, ascending. Cached loads on Fermi's L1
// path are served one 128-byte line per access, any permutation of lanes inside it is free, and
// every further line costs a replay (S3.2).
struct BlockList {
  std::uint32_t count = 0;
  std::array<std::uint64_t, kMaxSectors> address{};
};
void gather_blocks(const SectorSet& sectors, std::uint32_t block_bytes, BlockList& out);

// S3.4 store transactions: inside each 128-byte region the hardware tries one 4-segment
// transaction, then 2-segment, then 1-segment ones. A 4-segment transaction is used when the
// region's touched segments lie in both 64-byte halves ("two addresses in one 128 B region but
// different 64 B halves -> one 4-segment"); within one 64-byte half, both segments touched ->
// one 2-segment transaction, one segment -> a 1-segment transaction. Scattered segments in
// different regions -> one 1-segment transaction each, the extra ones being replays.
struct StoreTransaction {
  std::uint64_t address = 0;    // aligned to its size
  std::uint32_t segments = 0;   // 1, 2 or 4 (x 32 bytes)
};
struct StoreTransactionList {
  std::uint32_t count = 0;
  std::array<StoreTransaction, kMaxSectors> items{};
};
void plan_store_transactions(const SectorSet& sectors, StoreTransactionList& out);

// Shared memory (S3.10): 32 banks of 4 bytes. Lanes reading different 4-byte words of one bank
// serialise; lanes on the same word are served together (broadcast). The instruction takes as
// many passes (ncu: wavefronts) as the busiest bank has distinct words.
struct SharedAccessShape {
  std::uint32_t passes = 0;        // through the banks: 1 + replays
  std::uint32_t ideal_passes = 0;  // what the same bytes would take with no conflict
  std::uint32_t conflicts() const { return passes - ideal_passes; }
};
inline constexpr std::uint32_t kSharedBanks = 32;
inline constexpr std::uint32_t kSharedBankBytes = 4;
inline constexpr std::uint32_t kWarpWords = 32 * 4;  // 32 lanes x a 16-byte access
SharedAccessShape shared_bank_shape(const traces::Instruction& inst);

}  // namespace warpsim::models::memory
