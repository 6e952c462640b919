#include "analysis/report/point_summary.hpp"

namespace warpsim::analysis {

PointSummary summarize_point(const ResultTable& table, std::size_t row, const std::vector<std::string>& axes) {
  PointSummary p;
  p.row = row;
  p.point = static_cast<std::int64_t>(table.column("point").number(row));
  for (const auto& axis : axes) {
    const Column& c = table.column(column_name_of_setting(axis));
    p.parameters.push_back({axis, c.text(row), c.json(row)});
  }
  p.time_ms = table.column("time_ms").number(row);
  p.cycles = static_cast<std::int64_t>(table.column("cycles").number(row));
  for (const auto& m : key_metric_names()) p.metrics.emplace_back(m, table.column(m).number(row));
  if (table.has("limiter")) p.limiter = table.column("limiter").text(row);
  return p;
}

}  // namespace warpsim::analysis
