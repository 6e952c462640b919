#include "analysis/report/limiter_changes.hpp"

#include "analysis/report/axis_sensitivity.hpp"

namespace warpsim::analysis {

AxisLimiters limiter_changes(const ResultTable& table, const std::vector<std::size_t>& rows, std::size_t best_row,
                             const std::vector<std::string>& axes, const std::string& axis) {
  AxisLimiters out;
  out.axis = axis;
  if (!table.has("limiter") || !table.has("limiter_evidence")) return out;
  const Column& limiter = table.column("limiter");
  const Column& evidence = table.column("limiter_evidence");
  const Column& status = table.column("status");
  const Column& values = table.column(column_name_of_setting(axis));
  // Rows are in point order, and along one axis with the others held that is the axis's order.
  for (std::size_t row : rows_on_line(table, rows, best_row, axes, axis)) {
    if (status.number(row) != 0) continue;
    const std::string l = limiter.text(row);
    if (out.spans.empty() || out.spans.back().limiter != l)
      out.spans.push_back({values.text(row), values.text(row), values.json(row), values.json(row), l,
                           evidence.text(row), 0});
    LimiterSpan& span = out.spans.back();
    span.to = values.text(row);
    span.to_json = values.json(row);
    ++span.points;
  }
  return out;
}

}  // namespace warpsim::analysis
