#include "traces/accelsim/opcode_table.hpp"

#include <algorithm>
#include <array>

namespace warpsim::traces::accelsim {
namespace {

struct Entry {
  std::string_view name;
  Unit unit;
  Control control;
  MemOp mem_op;
  SpaceRule space;
  int first_sm;  // the opcode exists from this SM version ...
  int last_sm;   // ... up to this one
};

constexpr int kAll = 0, kLatest = 1000;
using U = Unit;
using C = Control;
using M = MemOp;
using S = SpaceRule;

constexpr Entry alu(std::string_view n, Unit u, int first = kAll, int last = kLatest) {
  return {n, u, C::None, M::None, S::None, first, last};
}
constexpr Entry ctl(std::string_view n, Control c = C::None, int first = kAll, int last = kLatest) {
  return {n, U::Control, c, M::None, S::None, first, last};
}
constexpr Entry mem(std::string_view n, MemOp op, SpaceRule s, int first = kAll, int last = kLatest) {
  return {n, U::LdSt, C::None, op, s, first, last};
}

// Sorted by name (checked at compile time below). Pascal = 61, Volta = 70, Turing = 75,
// Ampere = 80/86, Hopper = 90. Sources: NVIDIA's CUDA binary utilities instruction-set tables
// for each architecture; opcodes dropped at Volta carry last_sm 61.
constexpr auto kEntries = std::to_array<Entry>({
    ctl("ACQBULK", C::None, 90),
    mem("ATOM", M::Atomic, S::Generic),
    mem("ATOMG", M::Atomic, S::Global),
    mem("ATOMS", M::Atomic, S::Shared),
    ctl("BAR", C::Barrier),
    alu("BFE", U::Int, kAll, 61),
    alu("BFI", U::Int, kAll, 61),
    alu("BMMA", U::Tensor, 75),
    ctl("BMOV", C::None, 70),
    alu("BMSK", U::Int, 75),
    ctl("BPT"),
    ctl("BRA"),
    ctl("BREAK", C::None, 70),
    alu("BREV", U::Int),
    ctl("BRK", C::None, kAll, 61),
    ctl("BRX"),
    ctl("BSSY", C::None, 70),
    ctl("BSYNC", C::None, 70),
    ctl("CAL", C::None, kAll, 61),
    ctl("CALL", C::None, 70),
    ctl("CCTL"),
    ctl("CCTLL"),
    ctl("CCTLT"),
    ctl("CONT", C::None, kAll, 61),
    alu("CS2R", U::Int),
    alu("CSET", U::Int, kAll, 61),
    alu("CSETP", U::Int, kAll, 61),
    alu("DADD", U::Fp64),
    ctl("DEPBAR"),
    alu("DFMA", U::Fp64),
    alu("DMMA", U::Tensor, 80),
    alu("DMNMX", U::Fp64),
    alu("DMUL", U::Fp64),
    alu("DSET", U::Fp64),
    alu("DSETP", U::Fp64),
    ctl("ELECT", C::None, 90),
    ctl("ERRBAR", C::None, 70),
    ctl("EXIT", C::Exit),
    alu("F2F", U::Sfu),
    alu("F2FP", U::Fp32, 80),
    alu("F2I", U::Sfu),
    alu("FADD", U::Fp32),
    alu("FADD32I", U::Fp32),
    alu("FCHK", U::Fp32),
    alu("FCMP", U::Fp32),
    ctl("FENCE", C::None, 90),
    alu("FFMA", U::Fp32),
    alu("FFMA32I", U::Fp32),
    alu("FLO", U::Int),
    alu("FMNMX", U::Fp32),
    alu("FMUL", U::Fp32),
    alu("FMUL32I", U::Fp32),
    alu("FRND", U::Sfu),
    alu("FSEL", U::Fp32),
    alu("FSET", U::Fp32),
    alu("FSETP", U::Fp32),
    alu("FSWZADD", U::Fp32),
    alu("GETLMEMBASE", U::Int, 70),
    alu("HADD2", U::Fp32),
    alu("HADD2_32I", U::Fp32),
    alu("HFMA2", U::Fp32),
    alu("HFMA2_32I", U::Fp32),
    alu("HGMMA", U::Tensor, 90),
    alu("HMMA", U::Tensor, 70),
    alu("HMNMX2", U::Fp32, 80),
    alu("HMUL2", U::Fp32),
    alu("HMUL2_32I", U::Fp32),
    alu("HSET2", U::Fp32),
    alu("HSETP2", U::Fp32),
    alu("I2F", U::Sfu),
    alu("I2FP", U::Int, 80),
    alu("I2I", U::Sfu),
    alu("I2IP", U::Int, 75),
    alu("IABS", U::Int, 70),
    alu("IADD", U::Int, kAll, 61),
    alu("IADD3", U::Int),
    alu("IADD32I", U::Int, kAll, 61),
    alu("ICMP", U::Int, kAll, 61),
    alu("IDP", U::Int, 61),
    alu("IGMMA", U::Tensor, 90),
    alu("IMAD", U::Int),
    alu("IMADSP", U::Int, kAll, 61),
    alu("IMMA", U::Tensor, 75),
    alu("IMNMX", U::Int),
    alu("IMUL", U::Int, kAll, 61),
    alu("IMUL32I", U::Int, kAll, 61),
    alu("ISCADD", U::Int, kAll, 61),
    alu("ISCADD32I", U::Int, kAll, 61),
    alu("ISET", U::Int, kAll, 61),
    alu("ISETP", U::Int),
    ctl("JMP"),
    ctl("JMX"),
    ctl("KILL"),
    mem("LD", M::Load, S::Generic),
    {"LDC", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    mem("LDG", M::Load, S::Global),
    ctl("LDGDEPBAR", C::None, 80),
    mem("LDGSTS", M::Load, S::Global, 80),
    mem("LDL", M::Load, S::Local),
    mem("LDS", M::Load, S::Shared),
    mem("LDSM", M::Load, S::Shared, 75),
    alu("LEA", U::Int),
    alu("LEPC", U::Int),
    alu("LOP", U::Int, kAll, 61),
    alu("LOP3", U::Int),
    alu("LOP32I", U::Int, kAll, 61),
    ctl("MATCH", C::None, 70),
    ctl("MEMBAR"),
    alu("MOV", U::Int),
    alu("MOV32I", U::Int, kAll, 61),
    alu("MOVM", U::Int, 75),
    alu("MUFU", U::Sfu),
    ctl("NANOSLEEP", C::None, 70),
    ctl("NOP"),
    alu("P2R", U::Int),
    ctl("PBK", C::None, kAll, 61),
    ctl("PCNT", C::None, kAll, 61),
    alu("PLOP3", U::Int),
    alu("POPC", U::Int),
    ctl("PRET", C::None, kAll, 61),
    alu("PRMT", U::Int),
    alu("PSET", U::Int, kAll, 61),
    alu("PSETP", U::Int),
    alu("QGMMA", U::Tensor, 90),
    alu("R2B", U::Int),
    alu("R2P", U::Int),
    alu("R2UR", U::Int, 75),
    mem("RED", M::Atomic, S::Generic),
    mem("REDG", M::Atomic, S::Global, 90),
    ctl("RET"),
    alu("RRO", U::Fp32, kAll, 61),
    ctl("RTT"),
    alu("S2R", U::Int),
    alu("S2UR", U::Int, 75),
    alu("SEL", U::Int),
    alu("SGXT", U::Int, 70),
    alu("SHF", U::Int),
    {"SHFL", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    alu("SHL", U::Int, kAll, 61),
    alu("SHR", U::Int, kAll, 61),
    ctl("SSY", C::None, kAll, 61),
    mem("ST", M::Store, S::Generic),
    mem("STG", M::Store, S::Global),
    mem("STL", M::Store, S::Local),
    mem("STS", M::Store, S::Shared),
    mem("STSM", M::Store, S::Shared, 90),
    {"SUATOM", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"SULD", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"SURED", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"SUST", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    ctl("SYNC", C::None, kAll, 61),
    ctl("SYNCS", C::None, 90),
    {"TEX", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TEXS", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TLD", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TLD4", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TLD4S", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TLDS", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TMML", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TXD", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"TXQ", U::LdSt, C::None, M::None, S::None, kAll, kLatest},
    {"UBLKCP", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    alu("UBMSK", U::Int, 75),
    alu("UBREV", U::Int, 75),
    ctl("UCGABAR_ARV", C::None, 90),
    ctl("UCGABAR_WAIT", C::None, 90),
    alu("UCLEA", U::Int, 75),
    alu("UFLO", U::Int, 75),
    alu("UIADD3", U::Int, 75),
    alu("UIMAD", U::Int, 75),
    alu("UISETP", U::Int, 75),
    alu("ULDC", U::Int, 75),
    alu("ULEA", U::Int, 75),
    alu("ULOP", U::Int, 75),
    alu("ULOP3", U::Int, 75),
    alu("ULOP32I", U::Int, 75),
    alu("UMOV", U::Int, 75),
    alu("UP2UR", U::Int, 75),
    alu("UPLOP3", U::Int, 75),
    alu("UPOPC", U::Int, 75),
    alu("UPRMT", U::Int, 75),
    alu("UPSETP", U::Int, 75),
    alu("UR2UP", U::Int, 75),
    alu("USEL", U::Int, 75),
    alu("USETMAXREG", U::Int, 90),
    alu("USGXT", U::Int, 75),
    alu("USHF", U::Int, 75),
    {"UTMACCTL", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    {"UTMACMDFLUSH", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    {"UTMALDG", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    {"UTMAPF", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    {"UTMASTG", U::LdSt, C::None, M::None, S::None, 90, kLatest},
    alu("VABSDIFF", U::Int),
    alu("VABSDIFF4", U::Int),
    alu("VADD", U::Int, kAll, 61),
    alu("VHMNMX", U::Fp32, 90),
    alu("VIADD", U::Int, 90),
    alu("VIADDMNMX", U::Int, 90),
    alu("VIMNMX", U::Int, 90),
    alu("VIMNMX3", U::Int, 90),
    alu("VMAD", U::Int, kAll, 61),
    alu("VMNMX", U::Int, kAll, 61),
    alu("VOTE", U::Int),
    alu("VOTEU", U::Int, 75),
    alu("VSET", U::Int, kAll, 61),
    alu("VSETP", U::Int, kAll, 61),
    ctl("WARPGROUP", C::None, 90),
    ctl("WARPSYNC", C::None, 70),
    alu("XMAD", U::Int, kAll, 61),
    ctl("YIELD", C::None, 70),
});

constexpr bool entries_sorted() {
  for (std::size_t i = 1; i < kEntries.size(); ++i)
    if (!(kEntries[i - 1].name < kEntries[i].name)) return false;
  return true;
}
static_assert(entries_sorted(), "kEntries must be sorted by name for the binary search");

// Is `modifier` one of the dot-separated modifiers of `mnemonic` (after the base)?
bool has_modifier(std::string_view mnemonic, std::string_view modifier) {
  std::size_t pos = mnemonic.find('.');
  while (pos != std::string_view::npos) {
    std::size_t next = mnemonic.find('.', pos + 1);
    std::string_view m = mnemonic.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos : next - pos - 1);
    if (m == modifier) return true;
    pos = next;
  }
  return false;
}

// The cache operator of a global access, from its modifiers: .CG and the .STRONG (volatile,
// atomic-ordered) forms bypass L1; .CONSTANT/.NC (sm_70+ __ldg) and .CI (its sm_5x/6x form) use
// the read-only path; .CS/.EF/.LU are streaming (evict-first) hints.
CacheOp cache_op_of(std::string_view mnemonic) {
  if (mnemonic.find('.') == std::string_view::npos) return CacheOp::Default;
  if (has_modifier(mnemonic, "CG") || has_modifier(mnemonic, "STRONG") || has_modifier(mnemonic, "CV") ||
      has_modifier(mnemonic, "VOLATILE"))
    return CacheOp::Global;
  if (has_modifier(mnemonic, "CONSTANT") || has_modifier(mnemonic, "NC") || has_modifier(mnemonic, "CI"))
    return CacheOp::ReadOnly;
  if (has_modifier(mnemonic, "CS") || has_modifier(mnemonic, "EF") || has_modifier(mnemonic, "LU"))
    return CacheOp::Streaming;
  return CacheOp::Default;
}

}  // namespace

std::string_view base_opcode(std::string_view mnemonic) { return mnemonic.substr(0, mnemonic.find('.')); }

TableChoice opcode_table_for(int binary_version) {
  constexpr std::array<int, 6> kTables{61, 70, 75, 80, 86, 90};
  for (int t : kTables)
    if (t == binary_version) return {t, true};
  if (binary_version < 70) return {61, false};
  if (binary_version < 75) return {70, false};
  if (binary_version < 80) return {75, false};
  if (binary_version < 86) return {80, false};
  if (binary_version < 90) return {86, false};
  return {90, false};
}

std::optional<OpcodeClass> classify_opcode(std::string_view mnemonic, int sm) {
  std::string_view base = base_opcode(mnemonic);
  auto it = std::lower_bound(kEntries.begin(), kEntries.end(), base,
                             [](const Entry& e, std::string_view n) { return e.name < n; });
  if (it == kEntries.end() || it->name != base || sm < it->first_sm || sm > it->last_sm) return std::nullopt;
  OpcodeClass c{it->unit, it->control, it->mem_op, it->space, CacheOp::Default};
  // BAR.ARV arrives at a named barrier without waiting for it, so the warp does not block.
  if (c.control == Control::Barrier && has_modifier(mnemonic, "ARV")) c.control = Control::None;
  if (c.mem_op != MemOp::None && (c.space == SpaceRule::Global || c.space == SpaceRule::Generic))
    c.cache_op = cache_op_of(mnemonic);
  return c;
}

}  // namespace warpsim::traces::accelsim
