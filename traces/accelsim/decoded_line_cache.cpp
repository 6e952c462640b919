#include "traces/accelsim/decoded_line_cache.hpp"

#include <cstring>

namespace warpsim::traces::accelsim {

std::uint64_t DecodedLineCache::hash(std::string_view line) {
  // Eight bytes at a time, multiplied and folded: lines are 20-700 bytes of hex and decimal.
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ line.size();
  std::size_t i = 0;
  for (; i + 8 <= line.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, line.data() + i, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, line.data() + i, line.size() - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

void DecodedLineCache::make_tables() {
  index_.assign(kIndexSlots, 0);
  seen_.assign(kSeenSlots, 0);
  entries_.reserve(kEntries);  // mapped, not touched, until used
}

const Instruction* DecodedLineCache::find(const Key& key) {
  if (index_.empty()) return nullptr;  // nothing remembered yet
  const std::uint64_t h = key.hash;
  const std::uint32_t slot = index_[h % kIndexSlots];
  if (slot == 0) return nullptr;
  const Entry& e = entries_[slot - 1];
  return e.hash == h && e.text == key.line ? &e.inst : nullptr;
}

void DecodedLineCache::remember(const Key& key, const Instruction& inst) {
  if (index_.empty()) make_tables();
  const std::uint64_t h = key.hash;
  std::uint32_t& seen = seen_[(h >> 20) % kSeenSlots];
  const std::uint32_t fingerprint = static_cast<std::uint32_t>(h >> 32) | 1u;  // never 0
  if (seen != fingerprint) {
    seen = fingerprint;  // its first decoding (as far as the fingerprints tell)
    return;
  }
  std::uint32_t& slot = index_[h % kIndexSlots];
  if (slot == 0 && entries_.size() < kEntries) {
    entries_.push_back({});
    slot = static_cast<std::uint32_t>(entries_.size());
  } else if (slot == 0) {
    slot = static_cast<std::uint32_t>(h / kIndexSlots % kEntries) + 1;  // an older line's place
  }
  Entry& e = entries_[slot - 1];
  e.hash = h;
  e.text.assign(key.line);
  e.inst = inst;
}

}  // namespace warpsim::traces::accelsim
