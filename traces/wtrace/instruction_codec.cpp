#include "traces/wtrace/instruction_codec.hpp"

#include <bit>

namespace warpsim::traces::wtrace {
namespace {

// Flags byte.
constexpr std::uint8_t kUnitMask = 0x07;      // bits 0-2: Unit
constexpr int kControlShift = 3;              // bits 3-4: Control
constexpr std::uint8_t kFlagFullMask = 0x20;  // bit 5: active_mask == 0xffffffff (not stored)
constexpr std::uint8_t kFlagMemory = 0x40;     // bit 6: space/op/cache/width byte pair follows
constexpr std::uint8_t kFlagRegisters = 0x80;    // bit 7: register byte and registers follow

// Address layout byte of a memory instruction with two or more active lanes.
constexpr std::uint8_t kDeltas = 0;  // one signed delta per further lane
constexpr std::uint8_t kStride = 1;  // one signed stride for all lanes

int used_slots(const Reg* regs, int n) {
  int used = 0;
  for (int i = 0; i < n; ++i)
    if (regs[i] != kNoReg) used = i + 1;
  return used;
}

void put_reg(ByteWriter& out, Reg r) { out.varint(static_cast<std::uint16_t>(r + 1)); }  // kNoReg -> 0
Reg get_reg(ByteReader& in) {
  std::uint64_t v = in.varint();
  if (v > 0xffff) throw DecodeError("register number out of range");
  return static_cast<Reg>(v - 1);
}

}  // namespace

void encode_instruction(const Instruction& inst, WarpCodingState& state, ByteWriter& out) {
  int dst_slots = used_slots(inst.dst.data(), kMaxDst);
  int src_slots = used_slots(inst.src.data(), kMaxSrc);
  bool has_regs = inst.dst_count || inst.src_count || dst_slots || src_slots;
  bool has_mem_fields = inst.space != MemSpace::None || inst.mem_op != MemOp::None || inst.cache_op != CacheOp::Default ||
                        inst.width != 0;
  std::uint8_t flags = static_cast<std::uint8_t>(inst.unit) | static_cast<std::uint8_t>(static_cast<int>(inst.control) << kControlShift);
  if (inst.active_mask == kFullMask) flags |= kFlagFullMask;
  if (has_mem_fields) flags |= kFlagMemory;
  if (has_regs) flags |= kFlagRegisters;
  out.u8(flags);
  out.svarint(static_cast<std::int64_t>(inst.pc) - static_cast<std::int64_t>(state.pc));
  state.pc = inst.pc;
  if (inst.active_mask != kFullMask) out.u32(inst.active_mask);
  if (has_regs) {
    // counts and used slots: dst_count 2 bits, dst slots 2 bits, src_count 3 bits ... in two bytes
    out.u8(static_cast<std::uint8_t>(inst.dst_count | (dst_slots << 4)));
    out.u8(static_cast<std::uint8_t>(inst.src_count | (src_slots << 4)));
    for (int i = 0; i < dst_slots; ++i) put_reg(out, inst.dst[i]);
    for (int i = 0; i < src_slots; ++i) put_reg(out, inst.src[i]);
  }
  if (has_mem_fields) {
    out.u8(static_cast<std::uint8_t>(static_cast<int>(inst.space) | (static_cast<int>(inst.mem_op) << 3) |
                                     (static_cast<int>(inst.cache_op) << 5)));
    out.u8(inst.width);
  }
  if (inst.mem_op == MemOp::None || inst.active_mask == 0) return;
  // Addresses of the active lanes: the first as a delta from the warp's previous first
  // address, the others from the previous active lane.
  std::uint32_t m = inst.active_mask;
  int lane = std::countr_zero(m);
  std::uint64_t prev = inst.address(lane);
  out.svarint(static_cast<std::int64_t>(prev - state.first_address));
  state.first_address = prev;
  m &= m - 1;
  if (!m) return;
  std::int64_t stride = static_cast<std::int64_t>(inst.address(std::countr_zero(m)) - prev);
  bool even = true;
  std::uint64_t a = prev;
  for (std::uint32_t k = m; k; k &= k - 1) {
    std::uint64_t next = inst.address(std::countr_zero(k));
    if (static_cast<std::int64_t>(next - a) != stride) {
      even = false;
      break;
    }
    a = next;
  }
  if (even) {
    out.u8(kStride);
    out.svarint(stride);
    return;
  }
  out.u8(kDeltas);
  for (std::uint32_t k = m; k; k &= k - 1) {
    std::uint64_t next = inst.address(std::countr_zero(k));
    out.svarint(static_cast<std::int64_t>(next - prev));
    prev = next;
  }
}

void decode_instruction(ByteReader& in, WarpCodingState& state, Instruction& inst) {
  std::uint8_t flags = in.u8();
  std::uint8_t unit = flags & kUnitMask;
  std::uint8_t control = (flags >> kControlShift) & 0x3;
  if (unit >= kUnitCount || control > static_cast<std::uint8_t>(Control::Exit)) throw DecodeError("bad unit or control code");
  inst.unit = static_cast<Unit>(unit);
  inst.control = static_cast<Control>(control);
  state.pc = static_cast<std::uint32_t>(state.pc + static_cast<std::uint64_t>(in.svarint()));  // wraps, never UB
  inst.pc = state.pc;
  inst.active_mask = (flags & kFlagFullMask) ? kFullMask : in.u32();
  inst.dst = {kNoReg, kNoReg};
  inst.src = {kNoReg, kNoReg, kNoReg, kNoReg, kNoReg};
  inst.dst_count = inst.src_count = 0;
  if (flags & kFlagRegisters) {
    std::uint8_t d = in.u8(), s = in.u8();
    inst.dst_count = d & 0x0f;
    inst.src_count = s & 0x0f;
    int dst_slots = d >> 4, src_slots = s >> 4;
    if (inst.dst_count > kMaxDst || dst_slots > kMaxDst || inst.src_count > kMaxSrc || src_slots > kMaxSrc)
      throw DecodeError("register count out of range");
    for (int i = 0; i < dst_slots; ++i) inst.dst[i] = get_reg(in);
    for (int i = 0; i < src_slots; ++i) inst.src[i] = get_reg(in);
  }
  inst.space = MemSpace::None;
  inst.uniform_address = false;  // the file holds every active lane's address
  inst.lane_linear = false;
  inst.mem_op = MemOp::None;
  inst.cache_op = CacheOp::Default;
  inst.width = 0;
  if (flags & kFlagMemory) {
    std::uint8_t b = in.u8();
    std::uint8_t space = b & 0x7, op = (b >> 3) & 0x3, cache = (b >> 5) & 0x3;
    if (space > static_cast<std::uint8_t>(MemSpace::Constant) || (b >> 7)) throw DecodeError("bad memory space code");
    inst.space = static_cast<MemSpace>(space);
    inst.mem_op = static_cast<MemOp>(op);
    inst.cache_op = static_cast<CacheOp>(cache);
    inst.width = in.u8();
  }
  if (inst.mem_op == MemOp::None) return;
  inst.addr.fill(0);
  std::uint32_t m = inst.active_mask;
  if (!m) return;
  int lane = std::countr_zero(m);
  std::uint64_t prev = state.first_address + static_cast<std::uint64_t>(in.svarint());
  state.first_address = prev;
  inst.addr[lane] = prev;
  m &= m - 1;
  if (!m) return;
  std::uint8_t layout = in.u8();
  if (layout == kStride) {
    std::uint64_t stride = static_cast<std::uint64_t>(in.svarint());
    for (; m; m &= m - 1) inst.addr[std::countr_zero(m)] = prev += stride;
  } else if (layout == kDeltas) {
    for (; m; m &= m - 1) inst.addr[std::countr_zero(m)] = prev += static_cast<std::uint64_t>(in.svarint());
  } else {
    throw DecodeError("bad address layout code");
  }
}

}  // namespace warpsim::traces::wtrace
