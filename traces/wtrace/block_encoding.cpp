#include "traces/wtrace/block_encoding.hpp"

namespace warpsim::traces::wtrace::block_encoding {
namespace {

// One past the last slot that is not kNoReg (normally the count).
int used_slots(const Reg* regs, int n) {
  int used = 0;
  for (int i = 0; i < n; ++i)
    if (regs[i] != kNoReg) used = i + 1;
  return used;
}

void put_reg(ByteWriter& out, Reg r) { out.varint(static_cast<std::uint16_t>(r + 1)); }  // kNoReg -> 0

Reg get_reg(ByteReader& in) {
  const std::uint64_t v = in.varint();
  if (v > 0xffff) throw DecodeError("register number out of range");
  return static_cast<Reg>(v - 1);
}

}  // namespace

bool has_registers(const InstructionHead& head) {
  return head.dst_count || head.src_count || used_slots(head.dst.data(), kMaxDst) || used_slots(head.src.data(), kMaxSrc);
}

bool has_memory_fields(const InstructionHead& head) {
  return head.space != MemSpace::None || head.mem_op != MemOp::None || head.cache_op != CacheOp::Default ||
         head.width != 0;
}

void encode_registers(const InstructionHead& head, ByteWriter& out) {
  const int dst_slots = used_slots(head.dst.data(), kMaxDst);
  const int src_slots = used_slots(head.src.data(), kMaxSrc);
  out.u8(static_cast<std::uint8_t>(head.dst_count | dst_slots << 4));
  out.u8(static_cast<std::uint8_t>(head.src_count | src_slots << 4));
  for (int i = 0; i < dst_slots; ++i) put_reg(out, head.dst[static_cast<std::size_t>(i)]);
  for (int i = 0; i < src_slots; ++i) put_reg(out, head.src[static_cast<std::size_t>(i)]);
}

void decode_registers(ByteReader& in, InstructionHead& head) {
  const std::uint8_t d = in.u8(), s = in.u8();
  head.dst_count = d & 0x0f;
  head.src_count = s & 0x0f;
  const int dst_slots = d >> 4, src_slots = s >> 4;
  if (head.dst_count > kMaxDst || dst_slots > kMaxDst || head.src_count > kMaxSrc || src_slots > kMaxSrc)
    throw DecodeError("register count out of range");
  for (int i = 0; i < dst_slots; ++i) head.dst[static_cast<std::size_t>(i)] = get_reg(in);
  for (int i = 0; i < src_slots; ++i) head.src[static_cast<std::size_t>(i)] = get_reg(in);
}

void encode_memory_fields(const InstructionHead& head, ByteWriter& out) {
  out.u8(static_cast<std::uint8_t>(static_cast<int>(head.space) | static_cast<int>(head.mem_op) << 3 |
                                   static_cast<int>(head.cache_op) << 5));
  out.u8(head.width);
}

void decode_memory_fields(ByteReader& in, InstructionHead& head) {
  const std::uint8_t b = in.u8();
  const std::uint8_t space = b & 0x7, op = (b >> 3) & 0x3, cache = (b >> 5) & 0x3;
  if (space > static_cast<std::uint8_t>(MemSpace::Constant) || (b >> 7)) throw DecodeError("bad memory space code");
  head.space = static_cast<MemSpace>(space);
  head.mem_op = static_cast<MemOp>(op);
  head.cache_op = static_cast<CacheOp>(cache);
  head.width = in.u8();
}

void encode_entry(const InstructionHead& head, std::uint32_t& prev_pc, ByteWriter& out) {
  const bool registers = has_registers(head), memory = has_memory_fields(head);
  std::uint8_t flags = static_cast<std::uint8_t>(static_cast<int>(head.unit) | static_cast<int>(head.control) << kControlShift);
  if (registers) flags |= kHasRegisters;
  if (memory) flags |= kHasMemoryFields;
  out.u8(flags);
  out.svarint(static_cast<std::int64_t>(head.pc) - static_cast<std::int64_t>(prev_pc));
  prev_pc = head.pc;
  if (registers) encode_registers(head, out);
  if (memory) encode_memory_fields(head, out);
}

void decode_entry(ByteReader& in, std::uint32_t& prev_pc, InstructionHead& head) {
  head = InstructionHead{};
  const std::uint8_t flags = in.u8();
  const std::uint8_t unit = flags & kUnitMask;
  const std::uint8_t control = (flags >> kControlShift) & 0x3;
  if (unit >= kUnitCount || control > static_cast<std::uint8_t>(Control::Exit) || (flags & 0x80))
    throw DecodeError("bad unit or control code in the instruction table");
  head.unit = static_cast<Unit>(unit);
  head.control = static_cast<Control>(control);
  prev_pc = static_cast<std::uint32_t>(prev_pc + static_cast<std::uint64_t>(in.svarint()));  // wraps, never UB
  head.pc = prev_pc;
  if (flags & kHasRegisters) decode_registers(in, head);
  if (flags & kHasMemoryFields) decode_memory_fields(in, head);
}

}  // namespace warpsim::traces::wtrace::block_encoding
