#pragma once
// The stats registry: models own plain counters and register them here by reference, with a
// hierarchical name, a unit and a description. The hot path increments its own field; the
// registry is read only when results are written (no string look-up per cycle).
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace warpsim::sim {

struct StatEntry {
  std::string name;              // "gpu.sm3.l1.hits"
  std::string_view unit;         // "accesses", "cycles", "bytes"
  std::string_view description;  // one sentence
  const std::uint64_t* counter;
};

// A counter's value read at the end of a run, with what describes it: what `warpsim run --stats`
// prints, after the models that own the counters are gone.
struct StatValue {
  std::string name, unit, description;
  std::uint64_t value = 0;
};

class StatsRegistry {
 public:
  // The counter must outlive the registry's readers. `unit` and `description` are string
  // literals, kept as views (a GPU registers thousands of counters, and copying two strings for
  // each cost a small run a millisecond); `const char*`, so that a std::string, whose view would
  // outlive it, does not convert. Duplicate names are a programming error.
  void add(std::string name, const std::uint64_t& counter, const char* unit, const char* description);
  // Value by exact name (for tests and metric derivation, not for the hot path).
  std::uint64_t value(const std::string& name) const;
  // Sum over every counter whose name matches `prefix*suffix`, e.g. ("gpu.sm", ".l1.hits").
  std::uint64_t sum(const std::string& prefix, const std::string& suffix) const;
  // Every counter's value now, in registration order.
  std::vector<StatValue> snapshot() const;

 private:
  std::deque<StatEntry> entries_;  // a deque: its entries stay where they are as it grows
  // The names registered (views of entries_' names), for the duplicate check: a GPU registers
  // thousands (some 25 per SM), and a scan of entries_ per add cost a small run milliseconds.
  std::unordered_set<std::string_view> names_;
};

}  // namespace warpsim::sim
