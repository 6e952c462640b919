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
// simulation's (their 128 KiB zeroed cost ~2.5% of bfs's 16-launch run there). Warps run the same
// code, so the line after a line found is most often the line that followed it before: each
// entry remembers its follower, and find() compares that one's text first, before it hashes the
// line and looks it up (hashing a line and loading its slot were ~40% of reading matrixMul,
// where all but 3,204 of 495,616 lines are found).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/instruction.hpp"

namespace warpsim::traces::accelsim {

class DecodedLineCache {
 public:
  static constexpr std::size_t kEntries = 8192;

  // The instruction decoded from `line` before, or null.
  const Instruction* find(std::string_view line);
  // `line`, which the last find() did not find, was just decoded to `inst`: remembers that, if
  // it was decoded before.
  void remember(std::string_view line, const Instruction& inst);

  // How the lines asked for were answered: found as the follower of the line before, found by
  // their hash, or not found.
  struct Counts {
    std::uint64_t in_order = 0, by_hash = 0, missed = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::string text;
    Instruction inst;
    std::uint32_t next = 0;  // entry + 1 of the line found after this one last; 0: none yet
  };
  static constexpr std::size_t kIndexSlots = 2 * kEntries;
  // Fingerprints of lines decoded once, by hash (a later line may take a slot: then a line is
  // kept at its third decoding, not its second).
  static constexpr std::size_t kSeenSlots = 2 * kEntries;
  static std::uint64_t hash(std::string_view line);

  // The tables, made at the first remember().
  void make_tables();
  // `slot` (entry + 1) was found or kept after the line found last: the follower of that one.
  void found(std::uint32_t slot);

  std::vector<std::uint32_t> index_;  // entry + 1 by hash; 0 empty (kIndexSlots once made)
  std::vector<Entry> entries_;  // grows with the distinct lines seen twice, up to kEntries
  std::vector<std::uint32_t> seen_;  // fingerprint by slot; 0 none (kSeenSlots once made)
  std::uint32_t last_ = 0;  // entry + 1 of the line found or kept last; 0: the last was not kept
  std::uint32_t before_miss_ = 0;  // last_ when find() missed, for remember()
  std::uint64_t missed_hash_ = 0;  // the hash of the line find() missed, for remember()
  Counts counts_;
};

}  // namespace warpsim::traces::accelsim
