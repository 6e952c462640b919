#include "traces/wtrace/v1_instruction_codec.hpp"

#include <bit>

#include "traces/wtrace/block_encoding.hpp"

namespace warpsim::traces::wtrace::v1 {
namespace {

// Flags byte.
constexpr std::uint8_t kUnitMask = 0x07;       // bits 0-2: Unit
constexpr int kControlShift = 3;               // bits 3-4: Control
constexpr std::uint8_t kFlagFullMask = 0x20;   // bit 5: active_mask == 0xffffffff (not stored)
constexpr std::uint8_t kFlagMemory = 0x40;     // bit 6: space/op/cache/width byte pair follows
constexpr std::uint8_t kFlagRegisters = 0x80;  // bit 7: register byte and registers follow

// Address layout byte of a memory instruction with two or more active lanes.
constexpr std::uint8_t kDeltas = 0;  // one signed delta per further lane
constexpr std::uint8_t kStride = 1;  // one signed stride for all lanes

}  // namespace

void decode_instruction(ByteReader& in, WarpCodingState& state, Instruction& inst) {
  std::uint8_t flags = in.u8();
  std::uint8_t unit = flags & kUnitMask;
  std::uint8_t control = (flags >> kControlShift) & 0x3;
  if (unit >= kUnitCount || control > static_cast<std::uint8_t>(Control::Exit)) throw DecodeError("bad unit or control code");
  static_cast<InstructionHead&>(inst) = InstructionHead{};
  inst.unit = static_cast<Unit>(unit);
  inst.control = static_cast<Control>(control);
  state.pc = static_cast<std::uint32_t>(state.pc + static_cast<std::uint64_t>(in.svarint()));  // wraps, never UB
  inst.pc = state.pc;
  inst.active_mask = (flags & kFlagFullMask) ? kFullMask : in.u32();
  if (flags & kFlagRegisters) block_encoding::decode_registers(in, inst);
  if (flags & kFlagMemory) block_encoding::decode_memory_fields(in, inst);
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

}  // namespace warpsim::traces::wtrace::v1
