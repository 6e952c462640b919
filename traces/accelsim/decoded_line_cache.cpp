#include "traces/accelsim/decoded_line_cache.hpp"

#include <cstring>

namespace warpsim::traces::accelsim {

std::uint64_t DecodedLineCache::hash(std::string_view line) {
  // Eight bytes at a time, multiplied and folded: lines are 20-700 bytes of hex and decimal. A
  // memory line's 300-700 bytes go 32 at a time through four independent products, folded at the
  // end: one chain of multiplies cost ~5% of reading a trace, its latency and not its work.
  constexpr std::uint64_t kMul = 0xff51afd7ed558ccdull;
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ line.size();
  std::size_t i = 0;
  if (line.size() >= 64) {
    std::uint64_t lane[4] = {h, h ^ 0x6a09e667f3bcc908ull, h ^ 0xbb67ae8584caa73bull, h ^ 0x3c6ef372fe94f82bull};
    for (; i + 32 <= line.size(); i += 32)
      for (int k = 0; k < 4; ++k) {
        std::uint64_t word;
        std::memcpy(&word, line.data() + i + 8 * k, 8);
        lane[k] = (lane[k] ^ word) * kMul;
        lane[k] ^= lane[k] >> 29;
      }
    for (int k = 0; k < 4; ++k) h = (h ^ lane[k]) * kMul;
  }
  for (; i + 8 <= line.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, line.data() + i, 8);
    h = (h ^ word) * kMul;
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

const Instruction* DecodedLineCache::find(std::string_view line) {
  if (last_ != 0) {
    const std::uint32_t follower = entries_[last_ - 1].next;
    if (follower != 0 && entries_[follower - 1].text == line) {
      last_ = follower;
      ++counts_.in_order;
      return &entries_[follower - 1].inst;
    }
  }
  const std::uint64_t h = hash(line);
  if (!index_.empty()) {
    const std::uint32_t slot = index_[h % kIndexSlots];
    if (slot != 0) {
      const Entry& e = entries_[slot - 1];
      if (e.hash == h && e.text == line) {
        found(slot);
        ++counts_.by_hash;
        return &e.inst;
      }
    }
  }
  ++counts_.missed;
  before_miss_ = last_;
  missed_hash_ = h;
  last_ = 0;
  return nullptr;
}

void DecodedLineCache::found(std::uint32_t slot) {
  if (last_ != 0 && last_ != slot) entries_[last_ - 1].next = slot;
  last_ = slot;
}

void DecodedLineCache::remember(std::string_view line, const Instruction& inst) {
  if (index_.empty()) make_tables();
  const std::uint64_t h = missed_hash_;
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
  e.text.assign(line);
  e.inst = inst;
  e.next = 0;
  last_ = before_miss_;
  found(slot);
}

}  // namespace warpsim::traces::accelsim
