#pragma once
// One .traceg instruction line -> Instruction (FORMAT.md "Instruction line"). The decoder
// knows the header facts a line depends on (tracer version, lineinfo, SM version, the generic
// shared/local windows) and collects warnings about opcodes its table does not know.
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "traces/accelsim/opcode_table.hpp"
#include "traces/accelsim/trace_header.hpp"
#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

// Size of the generic-address windows that start at the header's `shmem base_addr` and
// `local mem base_addr`. Local offsets in real traces reach 0xfffbd0 (a 16 MiB per-thread
// stack window); shared memory is at most 228 KiB per block. 16 MiB covers both and the two
// windows are 32 MiB apart or more in every trace we have.
inline constexpr std::uint64_t kGenericWindowBytes = 16u << 20;

class InstructionDecoder {
 public:
  explicit InstructionDecoder(const TraceHeader& header);

  // Decodes `line` into `out` (every field; `addr` for memory instructions only). Throws
  // LineError saying which field is wrong. Does not allocate unless it meets a new unknown opcode.
  void decode(std::string_view line, Instruction& out);

  // One message per mnemonic that had to be classed by default, in first-seen order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  int table_sm() const { return table_sm_; }

 private:
  OpcodeClass classify(std::string_view mnemonic, bool has_addresses);
  OpcodeClass classify_uncached(std::string_view mnemonic, bool has_addresses);
  void warn_once(std::string_view mnemonic, const std::string& message);
  void resolve_space(SpaceRule rule, Instruction& out) const;

  bool block_fields_;
  bool lineinfo_;
  bool immediate_;
  std::uint64_t shmem_base_;
  std::uint64_t local_base_;
  int table_sm_;
  // Mnemonic -> class, so that each distinct opcode string of a kernel is classified once
  // (a kernel has tens of them and millions of lines).
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // [0]: lines without addresses, [1]: with (which can turn an unknown mnemonic into a load).
  std::unordered_map<std::string, OpcodeClass, StringHash, std::equal_to<>> classes_[2];
  std::set<std::string, std::less<>> warned_;
  std::vector<std::string> warnings_;
};

}  // namespace warpsim::traces::accelsim
