#include "analysis/derive/derivation.hpp"

#include <cstdio>

namespace warpsim::analysis {

void Derivation::set(const std::string& key, const std::string& value, const std::string& source) {
  for (auto& v : values_)
    if (v.key == key) {
      v = DerivedValue{key, value, source};
      return;
    }
  values_.push_back(DerivedValue{key, value, source});
}

bool Derivation::has(const std::string& key) const {
  for (const auto& v : values_)
    if (v.key == key) return true;
  return false;
}

std::vector<std::string> Derivation::overrides() const {
  std::vector<std::string> out;
  for (const auto& v : values_) out.push_back(v.key + "=" + v.value);
  return out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace warpsim::analysis
