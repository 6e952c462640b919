#pragma once
// Decoded instruction lines by their text. A kernel's warps run the same code, mostly over the
// same addresses (shared memory, the tiles a row of blocks shares), so most lines of a trace
// repeat exactly: matrixMul's first kernel has 3,204 distinct lines among 495,616, backprop's
// 16,608 among 536,576. A line's Instruction depends only on its text and the trace's header,
// so a repeated line is copied instead of parsed. The lines are kept as they come, up to
// kEntries of them (then newer ones take older ones' places); a line is only ever matched by
// its whole text, never mistaken for another. A line is kept the second time it is decoded, not
// the first: a load's or store's line names its addresses, and in a streaming kernel each one
// is new (every one of 2dconv's 81,600 memory lines, of vectoradd's 4,689), so keeping each
// copied 300-odd bytes it would never read back, and vectoradd's ~400 pages of them cost a page
// fault each. Until then only a fingerprint of its hash is noted. The tables are made at the
// first line, on the thread that reads the blocks, not when the launch is opened on the
// simulation's (their 128 KiB zeroed cost ~2.5% of bfs's 16-launch run there).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

class DecodedLineCache {
 public:
  static constexpr std::size_t kEntries = 8192;

  // A line with its hash, computed once for find and remember (a memory line is 300-700 bytes).
  struct Key {
    std::string_view line;
    std::uint64_t hash;
  };
  static Key key(std::string_view line) { return Key{line, hash(line)}; }

  // The instruction decoded from the key's line before, or null.
  const Instruction* find(const Key& key);
  // The key's line was just decoded to `inst`: remembers that, if it was decoded before.
  void remember(const Key& key, const Instruction& inst);

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::string text;
    Instruction inst;
  };
  static constexpr std::size_t kIndexSlots = 2 * kEntries;
  // Fingerprints of lines decoded once, by hash (a later line may take a slot: then a line is
  // kept at its third decoding, not its second).
  static constexpr std::size_t kSeenSlots = 2 * kEntries;
  static std::uint64_t hash(std::string_view line);

  // The tables, made at the first remember().
  void make_tables();

  std::vector<std::uint32_t> index_;  // entry + 1 by hash; 0 empty (kIndexSlots once made)
  std::vector<Entry> entries_;  // grows with the distinct lines seen twice, up to kEntries
  std::vector<std::uint32_t> seen_;  // fingerprint by slot; 0 none (kSeenSlots once made)
};

}  // namespace warpsim::traces::accelsim
