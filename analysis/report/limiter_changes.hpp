#pragma once
// Where along an axis the limiter changes: the line through the best point along that axis
// (every other axis held at the best point's value, as axis_sensitivity.hpp), cut into spans of
// consecutive values that share a limiter, e.g. "block 32-96: latency (too few warps ...);
// 128-1024: dram-bandwidth (DRAM at 91% ...)".
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/report/result_table.hpp"

namespace warpsim::analysis {

struct LimiterSpan {
  std::string from, to;          // the axis values at its ends, as a person reads them (equal for one point)
  std::string from_json, to_json;  // the same as JSON literals
  std::string limiter, evidence;   // the span's first point's
  std::size_t points = 0;
};

struct AxisLimiters {
  std::string axis;
  std::vector<LimiterSpan> spans;  // in the axis's order; failed points are left out
};

// Empty spans when the file has no limiter column (written before it existed).
AxisLimiters limiter_changes(const ResultTable& table, const std::vector<std::size_t>& rows, std::size_t best_row,
                             const std::vector<std::string>& axes, const std::string& axis);

}  // namespace warpsim::analysis
