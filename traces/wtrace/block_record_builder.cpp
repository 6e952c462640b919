#include "traces/wtrace/block_record_builder.hpp"

#include <bit>
#include <cstring>

#include "traces/wtrace/block_encoding.hpp"

namespace warpsim::traces::wtrace {

using namespace block_encoding;

std::size_t BlockRecordBuilder::EntryHash::operator()(const EntryKey& k) const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::uint64_t w : k.words) h = (h ^ w) * 0xff51afd7ed558ccdull;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

void BlockRecordBuilder::begin(std::uint64_t id, std::uint32_t warps) {
  id_ = id;
  instructions_ = 0;
  warp_count_ = warps;
  if (warps_.size() < warps) warps_.resize(warps);
  for (std::uint32_t w = 0; w < warps; ++w) {
    WarpState& s = warps_[w];
    s.bytes.clear();
    s.instructions = 0;
    s.prev_index = -1;
    s.prev_mask = kFullMask;
    s.prev_address = 0;
    s.slots.fill(AddressSlot{});
  }
  entries_.clear();
  ++block_serial_;
  memory_entries_ = 0;
  table_.clear();
  table_pc_ = 0;
}

namespace {

// Which bits of an InstructionHead's words are its static fields, as the table keeps them: all but
// the mask and the two address forms (addresses are written lane by lane).
std::array<std::uint64_t, 4> static_field_bits() {
  InstructionHead ones;
  std::memset(static_cast<void*>(&ones), 0xff, sizeof ones);
  ones.active_mask = 0;
  ones.uniform_address = false;
  ones.lane_linear = false;
  std::array<std::uint64_t, 4> bits;
  static_assert(sizeof ones == sizeof bits, "InstructionHead has no padding to hash");
  std::memcpy(bits.data(), &ones, sizeof ones);
  return bits;
}
const std::array<std::uint64_t, 4> kStaticFieldBits = static_field_bits();

}  // namespace

BlockRecordBuilder::Entry BlockRecordBuilder::entry_of(const Instruction& inst) {
  // The key is the head's words masked in registers: clearing the fields in a copy on the stack
  // and reading it back as words stalled each call on the narrow stores (~4.5% of reading three
  // corpus programs, perf).
  EntryKey key;
  std::memcpy(key.words.data(), static_cast<const InstructionHead*>(&inst), sizeof key.words);
  for (std::size_t i = 0; i < key.words.size(); ++i) key.words[i] &= kStaticFieldBits[i];
  Recent& recent = recent_[(inst.pc >> 3) % recent_.size()];
  if (recent.block == block_serial_ && recent.key == key) return recent.entry;
  auto [it, added] = entries_.try_emplace(key, Entry{static_cast<std::uint32_t>(entries_.size()), kNotMemory});
  if (added) {
    InstructionHead head;
    std::memcpy(static_cast<void*>(&head), key.words.data(), sizeof head);
    if (head.is_memory()) it->second.memory_number = memory_entries_++;
    encode_entry(head, table_pc_, table_);
  }
  recent = Recent{key, it->second, block_serial_};
  return it->second;
}

void BlockRecordBuilder::add(std::uint32_t warp, const Instruction& inst) {
  WarpState& w = warps_[warp];
  const Entry entry = entry_of(inst);
  std::uint8_t mask_mode = kMaskExplicit;
  if (inst.active_mask == kFullMask) mask_mode = kMaskFull;
  else if (inst.active_mask == w.prev_mask) mask_mode = kMaskSame;
  const std::int64_t step = static_cast<std::int64_t>(entry.index) - w.prev_index - 1;
  w.bytes.varint(zigzag(step) << kMaskModeBits | mask_mode);
  if (mask_mode == kMaskExplicit) w.bytes.u32(inst.active_mask);
  w.prev_index = entry.index;
  w.prev_mask = inst.active_mask;
  if (entry.memory_number != kNotMemory && inst.active_mask != 0) encode_addresses(inst, entry.memory_number, w);
  ++w.instructions;
  ++instructions_;
}

void BlockRecordBuilder::encode_addresses(const Instruction& inst, std::uint32_t memory_number, WarpState& w) {
  // The first active lane's address, from the last one of this static instruction in this warp
  // (a loop's stride, the same bytes every iteration) or else from the warp's last address.
  int n = 0;
  for (std::uint32_t m = inst.active_mask; m; m &= m - 1) lanes_[static_cast<std::size_t>(n++)] = inst.address(std::countr_zero(m));
  AddressSlot& slot = w.slots[memory_number % kAddressSlots];
  const std::uint64_t reference = slot.tag == memory_number + 1 ? slot.address : w.prev_address;
  w.bytes.svarint(static_cast<std::int64_t>(lanes_[0] - reference));
  slot = AddressSlot{memory_number + 1, lanes_[0]};
  w.prev_address = lanes_[0];
  if (n < 2) return;
  // The other lanes: one stride, a stride within groups of g lanes and another between groups
  // (a 2-D block's rows), or one delta each. g is a power of two, so a lane's group and place in
  // it are a shift and a mask (a division by a variable g cost matrixMul's reading ~40%).
  const std::uint64_t stride = lanes_[1] - lanes_[0];
  auto fits = [&](int shift, std::uint64_t row) {
    const int in_group = (1 << shift) - 1;
    for (int k = 1; k < n; ++k)
      if (lanes_[static_cast<std::size_t>(k)] !=
          lanes_[0] + std::uint64_t(k >> shift) * row + std::uint64_t(k & in_group) * stride)
        return false;
    return true;
  };
  bool one_stride = true;
  for (int k = 2; k < n && one_stride; ++k)
    one_stride = lanes_[static_cast<std::size_t>(k)] == lanes_[0] + std::uint64_t(k) * stride;
  if (one_stride) {
    w.bytes.u8(kLayoutStride);
    w.bytes.svarint(static_cast<std::int64_t>(stride));
    return;
  }
  for (int shift = 1; (1 << shift) < n; ++shift) {
    const int g = 1 << shift;
    if (n % g != 0) break;
    const std::uint64_t row = lanes_[static_cast<std::size_t>(g)] - lanes_[0];
    if (!fits(shift, row)) continue;
    w.bytes.u8(kLayoutGroups);
    w.bytes.u8(static_cast<std::uint8_t>(g));
    w.bytes.svarint(static_cast<std::int64_t>(stride));
    w.bytes.svarint(static_cast<std::int64_t>(row));
    return;
  }
  w.bytes.u8(kLayoutDeltas);
  for (int k = 1; k < n; ++k)
    w.bytes.svarint(static_cast<std::int64_t>(lanes_[static_cast<std::size_t>(k)] - lanes_[static_cast<std::size_t>(k - 1)]));
}

std::vector<std::uint8_t> BlockRecordBuilder::finish() {
  ByteWriter out;
  out.varint(id_);
  out.varint(warp_count_);
  out.varint(entries_.size());
  out.varint(table_.size());
  out.append(table_.bytes());
  for (std::uint32_t w = 0; w < warp_count_; ++w) {
    out.varint(warps_[w].instructions);
    out.varint(warps_[w].bytes.size());
  }
  for (std::uint32_t w = 0; w < warp_count_; ++w) out.append(warps_[w].bytes.bytes());
  return std::move(out.bytes());
}

}  // namespace warpsim::traces::wtrace
