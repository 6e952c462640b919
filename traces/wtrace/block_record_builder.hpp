#pragma once
// Encodes one thread block's instructions as a version 2 block record (FORMAT.md): the writer of
// .wtrace files and the Accel-Sim reader's thread build their blocks with it. Reused from block
// to block, so encoding allocates only while a block is larger than any before it.
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "traces/instruction.hpp"
#include "traces/wtrace/block_record.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {

class BlockRecordBuilder {
 public:
  // Starts the block `id` of `warps` warps.
  void begin(std::uint64_t id, std::uint32_t warps);
  // Appends `inst` to warp `warp`'s instructions (warps may be filled in any order). Addresses are
  // taken through Instruction::address, so a uniform or lane-linear access is written lane by lane.
  void add(std::uint32_t warp, const Instruction& inst);
  std::uint64_t instructions() const { return instructions_; }
  // The block's record bytes. The builder is ready for begin() again.
  std::vector<std::uint8_t> finish();

 private:
  struct AddressSlot {
    std::uint32_t tag = 0;  // memory-entry number + 1; 0: empty
    std::uint64_t address = 0;
  };
  struct WarpState {
    ByteWriter bytes;
    std::uint64_t instructions = 0;
    std::int64_t prev_index = -1;
    std::uint32_t prev_mask = kFullMask;
    std::uint64_t prev_address = 0;
    std::array<AddressSlot, kAddressSlots> slots{};
  };
  struct EntryKey {
    std::array<std::uint64_t, 4> words;
    bool operator==(const EntryKey&) const = default;
  };
  struct EntryHash {
    std::size_t operator()(const EntryKey& k) const;
  };
  struct Entry {
    std::uint32_t index;
    std::uint32_t memory_number;  // kNotMemory for other instructions
  };
  static constexpr std::uint32_t kNotMemory = 0xffffffffu;

  // The table entry of `inst`'s static fields, added if new.
  Entry entry_of(const Instruction& inst);
  void encode_addresses(const Instruction& inst, std::uint32_t memory_number, WarpState& w);

  std::uint64_t id_ = 0;
  std::uint64_t instructions_ = 0;
  std::vector<WarpState> warps_;
  std::uint32_t warp_count_ = 0;
  std::unordered_map<EntryKey, Entry, EntryHash> entries_;
  // The entries looked up last, by PC: a warp's next instruction is usually one of them, found
  // without hashing. Valid for the block whose serial they carry.
  struct Recent {
    EntryKey key{};
    Entry entry{};
    std::uint64_t block = ~std::uint64_t{0};
  };
  std::array<Recent, 256> recent_{};
  std::uint64_t block_serial_ = 0;
  std::uint32_t memory_entries_ = 0;
  ByteWriter table_;
  std::uint32_t table_pc_ = 0;
  std::array<std::uint64_t, kWarpSize> lanes_{};  // the active lanes' addresses, in lane order
};

}  // namespace warpsim::traces::wtrace
