#include "traces/accelsim/instruction_decoder.hpp"

#include <bit>

#include "traces/accelsim/address_decoder.hpp"
#include "traces/accelsim/field_cursor.hpp"

namespace warpsim::traces::accelsim {
namespace {

// "R<n>", n in 0..255. RZ (R255) is not a dependence, so it is dropped from the operand list.
bool parse_register(std::string_view field, Reg& reg) {
  if (field.size() < 2 || field.size() > 4 || field[0] != 'R') throw LineError("expected a register R<n>, found '" + std::string(field.substr(0, 20)) + "'");
  std::uint64_t n = parse_unsigned_decimal(field.substr(1), "register number");
  if (n > 255) throw LineError("register number '" + std::string(field) + "' is above R255");
  if (n == kRegRZ) return false;
  reg = static_cast<Reg>(n);
  return true;
}

bool is_valid_width(std::uint64_t w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32; }

}  // namespace

InstructionDecoder::InstructionDecoder(const TraceHeader& header)
    : block_fields_(header.has_block_fields()),
      lineinfo_(header.lineinfo),
      immediate_(header.has_immediate()),
      shmem_base_(header.shmem_base),
      local_base_(header.local_base) {
  TableChoice choice = opcode_table_for(header.binary_version);
  table_sm_ = choice.sm;
  if (!choice.exact)
    warnings_.push_back("binary version " + std::to_string(header.binary_version) + " has no opcode table of its own; using sm_" +
                        std::to_string(choice.sm) + "'s");
}

void InstructionDecoder::warn_once(std::string_view mnemonic, const std::string& message) {
  if (warned_.find(mnemonic) != warned_.end()) return;
  warned_.emplace(mnemonic);
  warnings_.push_back(message);
}

OpcodeClass InstructionDecoder::classify(std::string_view mnemonic, bool has_addresses) {
  auto& cache = classes_[has_addresses ? 1 : 0];
  auto it = cache.find(mnemonic);
  if (it != cache.end()) return it->second;
  OpcodeClass c = classify_uncached(mnemonic, has_addresses);
  cache.emplace(std::string(mnemonic), c);
  return c;
}

OpcodeClass InstructionDecoder::classify_uncached(std::string_view mnemonic, bool has_addresses) {
  std::optional<OpcodeClass> c = classify_opcode(mnemonic, table_sm_);
  std::string_view base = base_opcode(mnemonic);
  if (!c) {
    if (has_addresses) {
      warn_once(base, "unknown opcode '" + std::string(base) + "' for sm_" + std::to_string(table_sm_) +
                          ": it has addresses, so it is treated as a load (space from its address)");
      return OpcodeClass{Unit::LdSt, Control::None, MemOp::Load, SpaceRule::Generic, CacheOp::Default};
    }
    warn_once(base, "unknown opcode '" + std::string(base) + "' for sm_" + std::to_string(table_sm_) +
                        ": treated as an integer ALU instruction");
    return OpcodeClass{};
  }
  if (has_addresses && c->mem_op == MemOp::None) {
    warn_once(base, "opcode '" + std::string(base) + "' carries addresses but is not a memory instruction in the sm_" +
                        std::to_string(table_sm_) + " table: treated as a load");
    c->unit = Unit::LdSt;
    c->mem_op = MemOp::Load;
    c->space = SpaceRule::Generic;
  }
  return *c;
}

// Generic LD/ST/ATOM/RED: the first active lane's address decides, as in Accel-Sim; shared and
// local addresses become offsets in their window, like those of LDS/LDL.
void InstructionDecoder::resolve_space(SpaceRule rule, Instruction& out) const {
  switch (rule) {
    case SpaceRule::Global: out.space = MemSpace::Global; return;
    case SpaceRule::Shared: out.space = MemSpace::Shared; return;
    case SpaceRule::Local: out.space = MemSpace::Local; return;
    case SpaceRule::Constant: out.space = MemSpace::Constant; return;
    case SpaceRule::None: out.space = MemSpace::None; return;
    case SpaceRule::Generic: break;
  }
  out.space = MemSpace::Global;
  if (out.active_mask == 0) return;
  std::uint64_t first = out.addr[std::countr_zero(out.active_mask)];
  std::uint64_t base = 0;
  if (shmem_base_ != 0 && first - shmem_base_ < kGenericWindowBytes) {
    out.space = MemSpace::Shared;
    base = shmem_base_;
  } else if (local_base_ != 0 && first - local_base_ < kGenericWindowBytes) {
    out.space = MemSpace::Local;
    base = local_base_;
  } else {
    return;
  }
  for (std::uint32_t m = out.active_mask; m; m &= m - 1) out.addr[std::countr_zero(m)] -= base;
}

void InstructionDecoder::decode(std::string_view line, Instruction& out) {
  FieldCursor fields(line);
  if (block_fields_)
    for (const char* what : {"thread block x", "thread block y", "thread block z", "warp id"}) fields.unsigned_decimal(what);
  if (lineinfo_) fields.unsigned_decimal("line number");

  std::uint64_t pc = fields.hex("PC");
  if (pc > UINT32_MAX) throw LineError("PC wider than 32 bits");
  out.pc = static_cast<std::uint32_t>(pc);
  std::string_view mask = fields.expect("active mask");
  if (mask.size() != 8) throw LineError("active mask '" + std::string(mask.substr(0, 20)) + "' is not 8 hex digits");
  out.active_mask = static_cast<std::uint32_t>(parse_hex(mask, "active mask"));

  std::uint64_t dst_num = fields.unsigned_decimal("destination count");
  if (dst_num > kMaxDst) throw LineError("destination count " + std::to_string(dst_num) + " is above " + std::to_string(kMaxDst));
  out.dst = {kNoReg, kNoReg};
  out.dst_count = 0;
  for (std::uint64_t i = 0; i < dst_num; ++i) {
    Reg r;
    if (parse_register(fields.expect("destination register"), r)) out.dst[out.dst_count++] = r;
  }

  std::string_view mnemonic = fields.expect("opcode");
  char c0 = mnemonic[0];
  if (!(c0 >= 'A' && c0 <= 'Z')) throw LineError("opcode '" + std::string(mnemonic.substr(0, 20)) + "' does not start with a capital letter");

  std::uint64_t src_num = fields.unsigned_decimal("source count");
  if (src_num > kMaxSrc) throw LineError("source count " + std::to_string(src_num) + " is above " + std::to_string(kMaxSrc));
  out.src = {kNoReg, kNoReg, kNoReg, kNoReg, kNoReg};
  out.src_count = 0;
  for (std::uint64_t i = 0; i < src_num; ++i) {
    Reg r;
    if (parse_register(fields.expect("source register"), r)) out.src[out.src_count++] = r;
  }

  std::uint64_t width = fields.unsigned_decimal("memory width");
  if (width != 0 && !is_valid_width(width))
    throw LineError("memory width " + std::to_string(width) + " is not 0, 1, 2, 4, 8, 16 or 32");
  bool has_addresses = width != 0;
  out.uniform_address = false;  // the trace lists every lane's address
  out.lane_linear = false;
  if (has_addresses) decode_addresses(fields, out.active_mask, out.addr);

  OpcodeClass c = classify(mnemonic, has_addresses);
  out.unit = c.unit;
  out.control = c.control;
  if (has_addresses && c.mem_op != MemOp::None) {
    out.mem_op = c.mem_op;
    out.cache_op = c.cache_op;
    out.width = static_cast<std::uint8_t>(width);
    resolve_space(c.space, out);
  } else {
    out.mem_op = MemOp::None;
    out.space = MemSpace::None;
    out.cache_op = CacheOp::Default;
    out.width = 0;
  }

  if (immediate_) fields.signed_decimal("immediate (v5)");
  std::string_view extra;
  if (fields.next(extra))
    throw LineError("unexpected field '" + std::string(extra.substr(0, 20)) +
                    "' after the end of the instruction (wrong number of addresses or deltas?)");
}

}  // namespace warpsim::traces::accelsim
