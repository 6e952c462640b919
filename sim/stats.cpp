#include "sim/stats.hpp"

#include <stdexcept>

namespace warpsim::sim {

void StatsRegistry::add(std::string name, const std::uint64_t& counter, const char* unit, const char* description) {
  entries_.push_back(StatEntry{std::move(name), unit, description, &counter});
  if (!names_.insert(entries_.back().name).second) {
    std::string twice = std::move(entries_.back().name);
    entries_.pop_back();
    throw std::logic_error("stat registered twice: " + twice);
  }
}

std::uint64_t StatsRegistry::value(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return *e.counter;
  throw std::out_of_range("no stat named " + name);
}

std::uint64_t StatsRegistry::sum(const std::string& prefix, const std::string& suffix) const {
  std::uint64_t total = 0;
  for (const auto& e : entries_) {
    const std::string& n = e.name;
    if (n.size() >= prefix.size() + suffix.size() && n.compare(0, prefix.size(), prefix) == 0 &&
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      total += *e.counter;
  }
  return total;
}

std::vector<StatValue> StatsRegistry::snapshot() const {
  std::vector<StatValue> values;
  values.reserve(entries_.size());
  for (const auto& e : entries_)
    values.push_back(StatValue{e.name, std::string(e.unit), std::string(e.description), *e.counter});
  return values;
}

}  // namespace warpsim::sim
