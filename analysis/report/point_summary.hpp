#pragma once
// One point as the report shows it: where it is in the sweep, its swept values, time and the
// key metrics.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/report/result_table.hpp"

namespace warpsim::analysis {

struct ParameterValue {
  std::string name;  // the setting's name as in the spec ("grid", not "param.grid")
  std::string text;  // as a person reads it
  std::string json;  // as a JSON literal
};

struct PointSummary {
  std::size_t row = 0;     // row in the file
  std::int64_t point = 0;  // global point index (the `point` column)
  std::vector<ParameterValue> parameters;  // the group's axes, in spec order
  double time_ms = 0;
  std::int64_t cycles = 0;
  std::vector<std::pair<std::string, double>> metrics;  // key_metric_names() order
  std::string limiter;  // "" in a file without the column
};

PointSummary summarize_point(const ResultTable& table, std::size_t row, const std::vector<std::string>& axes);

}  // namespace warpsim::analysis
