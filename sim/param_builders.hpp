#pragma once
// Short ways to declare a ParamSpec (config.hpp), so that a model's parameter list reads as one
// line a key: `integer("l2.ways", "ways", "L2 associativity", 1, 1024)`. None gives a default: a
// value the model needs must come from the preset, with its source.
#include <string>
#include <utility>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::sim::param {

// A count or size, in [min, max].
inline ParamSpec integer(std::string key, std::string unit, std::string description, double min = 0,
                         double max = 1e15) {
  return ParamSpec{std::move(key), ParamType::Int, "", std::move(unit), std::move(description), min, max, {}};
}
inline ParamSpec real(std::string key, std::string unit, std::string description, double min, double max) {
  return ParamSpec{std::move(key), ParamType::Float, "", std::move(unit), std::move(description), min, max, {}};
}
inline ParamSpec flag(std::string key, std::string description) {
  return ParamSpec{std::move(key), ParamType::Bool, "", "", std::move(description), 0, 1, {}};
}
inline ParamSpec text(std::string key, std::string description) {
  return ParamSpec{std::move(key), ParamType::String, "", "", std::move(description), 0, 0, {}};
}
// One of `choices` (a NamedTypes table's names(), named_types.hpp).
inline ParamSpec choice(std::string key, std::vector<std::string> choices, std::string description) {
  return ParamSpec{std::move(key), ParamType::Choice, "", "", std::move(description), 0, 0, std::move(choices)};
}

}  // namespace warpsim::sim::param
