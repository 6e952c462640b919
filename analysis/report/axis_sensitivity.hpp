#pragma once
// How much one axis matters: the line through the best point along that axis (every other axis
// held at the best point's value) and the spread of time along it. A one-at-a-time view: it
// answers "what does this knob cost me from where I am best", not interactions between knobs.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/report/result_table.hpp"

namespace warpsim::analysis {

struct AxisValueTime {
  std::string text, json;  // the axis value
  double time_ms = 0;
};

struct AxisSensitivity {
  std::string axis;
  std::size_t points = 0;  // points on the line, failed ones included
  std::size_t ok = 0;      // of which status 0
  std::optional<AxisValueTime> fastest, slowest;  // absent when no point on the line is ok
  double ratio = 0;      // slowest / fastest time; NaN with fewer than two ok points
  double spread_ms = 0;  // slowest - fastest time; NaN with fewer than two ok points
};

// The rows of `rows` (a group's, in file order) on the line along `axis` through `best_row`:
// every other axis of `axes` at the best point's value. Failed points included.
std::vector<std::size_t> rows_on_line(const ResultTable& table, const std::vector<std::size_t>& rows,
                                      std::size_t best_row, const std::vector<std::string>& axes,
                                      const std::string& axis);

// `rows`: the group's rows; `best_row`: its best point; `axes`: the group's axes (spec names).
AxisSensitivity axis_sensitivity(const ResultTable& table, const std::vector<std::size_t>& rows, std::size_t best_row,
                                 const std::vector<std::string>& axes, const std::string& axis);

}  // namespace warpsim::analysis
