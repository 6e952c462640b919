#pragma once
// What `warpsim arch derive` found: preset values, each with the source its comment carries
// ("latency.csv:8-9: 287.4 and 288.3 cycles ..."). Values not here are inherited from the base
// preset when the preset is written (preset_text.hpp).
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::analysis {

struct DerivedValue {
  std::string key;     // "l2.hit_latency"
  std::string value;   // as the preset writes it
  std::string source;  // file:line of the rows it comes from, and the arithmetic
};

class Derivation {
 public:
  // Sets (or replaces) a value.
  void set(const std::string& key, const std::string& value, const std::string& source);
  void set(const std::string& key, std::int64_t value, const std::string& source) {
    set(key, std::to_string(value), source);
  }
  bool has(const std::string& key) const;
  const std::vector<DerivedValue>& values() const { return values_; }
  // "key=value" of every value: the base preset with these is the preset derived so far.
  std::vector<std::string> overrides() const;

 private:
  std::vector<DerivedValue> values_;
};

// `v` with `decimals` digits after the point ("287.85"), for sources.
std::string fixed(double v, int decimals);

}  // namespace warpsim::analysis
