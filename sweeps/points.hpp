#pragma once
// The points of a sweep: every study's Cartesian product, in a fixed order (studies in file
// order, then row-major over the study's settings, last varying fastest). A point's index is
// its identity everywhere: in the journal, in shards, in the `point` dimension of the results.
#include <cstddef>
#include <string>
#include <vector>

#include "models/simulate.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::sweeps {

struct Point {
  std::size_t index = 0;           // global, 0-based
  std::size_t study = 0;           // index into SweepSpec::studies
  std::vector<std::size_t> coords; // one value index per setting of the study
  models::RunRequest request;
};

std::vector<Point> enumerate_points(const SweepSpec& spec);

// The value a point gives a setting name, or nullptr when its study does not set it.
const std::string* point_value(const SweepSpec& spec, const Point& p, const std::string& name);

// The parameter columns of the result table: every name that is an axis in some study (arch,
// kernel and trace excluded; they are columns of their own), in first-seen order.
std::vector<std::string> swept_parameter_names(const SweepSpec& spec);

}  // namespace warpsim::sweeps
