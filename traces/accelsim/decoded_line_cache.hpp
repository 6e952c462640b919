#pragma once
// Decoded instruction lines by their text. A kernel's warps run the same code, mostly over the
// same addresses (shared memory, the tiles a row of blocks shares), so most lines of a trace
// repeat exactly: matrixMul's first kernel has 3,204 distinct lines among 495,616, backprop's
// 16,608 among 536,576. A line's Instruction depends only on its text and the trace's header,
// so a repeated line is copied instead of parsed. The lines are kept as they come, up to
// kEntries of them (then newer ones take older ones' places); a line is only ever matched by
// its whole text, never mistaken for another.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

class DecodedLineCache {
 public:
  static constexpr std::size_t kEntries = 8192;

  DecodedLineCache();

  // The instruction decoded from `line` before, or null.
  const Instruction* find(std::string_view line);
  // Remembers `inst` as what `line` decodes to.
  void remember(std::string_view line, const Instruction& inst);

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::string text;
    Instruction inst;
  };
  static constexpr std::size_t kIndexSlots = 2 * kEntries;
  static std::uint64_t hash(std::string_view line);

  std::vector<std::uint32_t> index_ = std::vector<std::uint32_t>(kIndexSlots, 0);  // entry + 1 by hash; 0 empty
  std::vector<Entry> entries_;  // grows with the distinct lines seen, up to kEntries
};

}  // namespace warpsim::traces::accelsim
