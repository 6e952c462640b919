#include "traces/wtrace/block_record.hpp"

#include <bit>
#include <new>

#include "sim/errors.hpp"
#include "traces/wtrace/block_encoding.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {

using namespace block_encoding;

std::size_t BlockRecord::footprint() const {
  return sizeof(BlockRecord) + bytes.capacity() + table.capacity() * sizeof(InstructionHead) +
         memory_number.capacity() * sizeof(std::uint32_t) + warps.capacity() * sizeof(Warp) + where.capacity();
}

BlockRecord parse_block_record(std::vector<std::uint8_t> bytes, const KernelInfo& kernel, std::string where) {
  BlockRecord record;
  record.bytes = std::move(bytes);
  record.where = std::move(where);
  ByteReader r(record.bytes.data(), record.bytes.size());
  record.id = r.varint();
  if (record.id >= kernel.grid.count()) throw DecodeError("block id outside the grid");
  if (r.varint() != kernel.warps_per_block()) throw DecodeError("warp count does not match the block size");
  const std::uint64_t entries = r.varint();
  const std::uint64_t table_bytes = r.varint();
  // Every entry takes at least two bytes: a larger count is corruption, refused before allocating.
  if (table_bytes > r.remaining() || entries > table_bytes / 2) throw DecodeError("instruction table larger than its block");
  ByteReader table(r.position(), static_cast<std::size_t>(table_bytes));
  r.skip(table_bytes);
  record.table.resize(static_cast<std::size_t>(entries));
  record.memory_number.resize(record.table.size());
  std::uint32_t pc = 0;
  for (std::size_t e = 0; e < record.table.size(); ++e) {
    decode_entry(table, pc, record.table[e]);
    record.memory_number[e] = record.table[e].is_memory() ? record.memory_entries++ : 0;
  }
  if (table.remaining() != 0) throw DecodeError("instruction table has bytes left over");
  record.warps.resize(kernel.warps_per_block());
  std::uint64_t total = 0;
  for (auto& w : record.warps) {
    w.instructions = r.varint();
    w.size = static_cast<std::size_t>(r.varint());
    if (w.size > record.bytes.size()) throw DecodeError("warp larger than its block");
    // Every instruction takes at least one byte.
    if (w.instructions > w.size) throw DecodeError("warp has more instructions than bytes");
    total += w.size;
  }
  if (total != r.remaining()) throw DecodeError("warp sizes do not add up to the block");
  std::size_t offset = record.bytes.size() - r.remaining();
  for (auto& w : record.warps) {
    w.offset = offset;
    offset += w.size;
  }
  return record;
}

namespace {

// The state every warp of one open block shares: the record, and the address slots of each warp
// (as many as the table has memory entries, up to kAddressSlots, filled by number modulo that).
struct OpenBlock {
  explicit OpenBlock(std::shared_ptr<const BlockRecord> r)
      : record(std::move(r)),
        slots_per_warp(std::min<std::uint32_t>(std::bit_ceil(record->memory_entries), kAddressSlots)),
        slots(std::size_t{slots_per_warp} * record->warps.size()) {}
  struct Slot {
    std::uint32_t tag = 0;  // memory-entry number + 1; 0: empty
    std::uint64_t address = 0;
  };
  std::shared_ptr<const BlockRecord> record;
  std::uint32_t slots_per_warp;
  std::vector<Slot> slots;
};

class RecordWarpStream final : public WarpStream {
 public:
  RecordWarpStream(std::shared_ptr<OpenBlock> block, std::size_t warp)
      : block_(std::move(block)),
        pos_(block_->record->bytes.data() + block_->record->warps[warp].offset),
        end_(pos_ + block_->record->warps[warp].size),
        table_(block_->record->table.data()),
        numbers_(block_->record->memory_number.data()),
        slots_(block_->slots.data() + warp * block_->slots_per_warp),
        table_size_(static_cast<std::uint32_t>(block_->record->table.size())),
        slot_mask_(block_->slots_per_warp - 1),
        remaining_(block_->record->warps[warp].instructions),
        warp_(static_cast<std::uint32_t>(warp)) {}

  bool next(Instruction& out) override {
    if (remaining_ == 0) return false;
    try {
      ByteReader in(pos_, static_cast<std::size_t>(end_ - pos_));
      decode(in, out);
      pos_ = in.position();
      if (--remaining_ == 0 && pos_ != end_) throw DecodeError("bytes left over after the warp's last instruction");
    } catch (const DecodeError& e) {
      throw sim::InputError(block_->record->where, "malformed instruction data in warp " + std::to_string(warp_) + ": " + e.what());
    }
    return true;
  }

  WarpStream* move_into(void* storage, std::size_t bytes) override {
    if (bytes < sizeof(RecordWarpStream)) return nullptr;
    return ::new (storage) RecordWarpStream(std::move(*this));
  }

 private:
  void decode(ByteReader& in, Instruction& out) {
    const std::uint64_t code = in.varint();
    const std::uint64_t index = prev_index_ + 1 + static_cast<std::uint64_t>(unzigzag(code >> kMaskModeBits));
    if (index >= table_size_) throw DecodeError("instruction table index out of range");
    prev_index_ = index;
    static_cast<InstructionHead&>(out) = table_[index];
    switch (code & ((1u << kMaskModeBits) - 1)) {
      case kMaskFull: mask_ = kFullMask; break;
      case kMaskSame: break;
      case kMaskExplicit: mask_ = in.u32(); break;
      default: throw DecodeError("bad active-mask code");
    }
    out.active_mask = mask_;
    if (out.is_memory()) decode_addresses(in, numbers_[index], out);
  }

  void decode_addresses(ByteReader& in, std::uint32_t number, Instruction& out) {
    out.addr.fill(0);
    std::uint32_t m = mask_;
    if (m == 0) return;
    OpenBlock::Slot& slot = slots_[number & slot_mask_];
    const std::uint64_t reference = slot.tag == number + 1 ? slot.address : prev_address_;
    std::uint64_t a = reference + static_cast<std::uint64_t>(in.svarint());
    slot.tag = number + 1;
    slot.address = a;
    prev_address_ = a;
    out.addr[static_cast<std::size_t>(std::countr_zero(m))] = a;
    m &= m - 1;
    if (m == 0) return;
    const std::uint8_t layout = in.u8();
    if (layout == kLayoutStride) {
      const auto stride = static_cast<std::uint64_t>(in.svarint());
      for (; m; m &= m - 1) out.addr[static_cast<std::size_t>(std::countr_zero(m))] = a += stride;
    } else if (layout == kLayoutGroups) {
      const std::uint32_t g = in.u8();
      const auto stride = static_cast<std::uint64_t>(in.svarint());
      const auto row = static_cast<std::uint64_t>(in.svarint());
      const std::uint32_t lanes = static_cast<std::uint32_t>(std::popcount(mask_));
      if (g < 2 || (g & (g - 1)) != 0 || lanes % g != 0 || g >= lanes) throw DecodeError("bad lane group size");
      // g is a power of two: a lane's group and place in it are a shift and a mask (a division
      // by a variable g was a fifth of this decoder's time on matrixMul's 16 x 16 blocks).
      const int shift = std::countr_zero(g);
      const std::uint32_t in_group = g - 1;
      const std::uint64_t first = a;
      for (std::uint32_t k = 1; m; m &= m - 1, ++k)
        out.addr[static_cast<std::size_t>(std::countr_zero(m))] = first + (k >> shift) * row + (k & in_group) * stride;
    } else if (layout == kLayoutDeltas) {
      for (; m; m &= m - 1) out.addr[static_cast<std::size_t>(std::countr_zero(m))] = a += static_cast<std::uint64_t>(in.svarint());
    } else {
      throw DecodeError("bad address layout code");
    }
  }

  std::shared_ptr<OpenBlock> block_;
  const std::uint8_t* pos_;
  const std::uint8_t* end_;
  const InstructionHead* table_;
  const std::uint32_t* numbers_;
  OpenBlock::Slot* slots_;
  std::uint32_t table_size_;
  std::uint32_t slot_mask_;
  std::uint64_t remaining_;
  std::uint64_t prev_index_ = ~std::uint64_t{0};  // -1: the first instruction steps to entry 0
  std::uint64_t prev_address_ = 0;
  std::uint32_t mask_ = kFullMask;
  std::uint32_t warp_;
};

class EmptyWarpStream final : public WarpStream {
 public:
  bool next(Instruction&) override { return false; }
  WarpStream* move_into(void* storage, std::size_t bytes) override {
    return bytes < sizeof(EmptyWarpStream) ? nullptr : ::new (storage) EmptyWarpStream();
  }
};

}  // namespace

std::vector<std::unique_ptr<WarpStream>> open_record_warps(std::shared_ptr<const BlockRecord> record) {
  auto block = std::make_shared<OpenBlock>(std::move(record));
  std::vector<std::unique_ptr<WarpStream>> warps;
  warps.reserve(block->record->warps.size());
  for (std::size_t w = 0; w < block->record->warps.size(); ++w) {
    if (block->record->warps[w].instructions == 0) warps.push_back(std::make_unique<EmptyWarpStream>());
    else warps.push_back(std::make_unique<RecordWarpStream>(block, w));
  }
  return warps;
}

}  // namespace warpsim::traces::wtrace
