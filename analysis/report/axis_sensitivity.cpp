#include "analysis/report/axis_sensitivity.hpp"

#include <cmath>
#include <limits>

namespace warpsim::analysis {

std::vector<std::size_t> rows_on_line(const ResultTable& table, const std::vector<std::size_t>& rows,
                                      std::size_t best_row, const std::vector<std::string>& axes,
                                      const std::string& axis) {
  std::vector<const Column*> held;
  for (const auto& other : axes)
    if (other != axis) held.push_back(&table.column(column_name_of_setting(other)));
  std::vector<std::size_t> out;
  for (std::size_t row : rows) {
    bool on_line = true;
    for (const Column* c : held) on_line = on_line && c->same(row, best_row);
    if (on_line) out.push_back(row);
  }
  return out;
}

AxisSensitivity axis_sensitivity(const ResultTable& table, const std::vector<std::size_t>& rows, std::size_t best_row,
                                 const std::vector<std::string>& axes, const std::string& axis) {
  const Column& time = table.column("time_ms");
  const Column& status = table.column("status");
  const Column& values = table.column(column_name_of_setting(axis));

  AxisSensitivity s;
  s.axis = axis;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.ratio = s.spread_ms = nan;
  std::size_t fastest = 0, slowest = 0;
  for (std::size_t row : rows_on_line(table, rows, best_row, axes, axis)) {
    ++s.points;
    double t = time.number(row);
    if (status.number(row) != 0 || !std::isfinite(t)) continue;
    // Ties keep the earlier point, so the answer does not depend on anything but the file.
    if (s.ok == 0 || t < time.number(fastest)) fastest = row;
    if (s.ok == 0 || t > time.number(slowest)) slowest = row;
    ++s.ok;
  }
  if (s.ok == 0) return s;
  s.fastest = AxisValueTime{values.text(fastest), values.json(fastest), time.number(fastest)};
  s.slowest = AxisValueTime{values.text(slowest), values.json(slowest), time.number(slowest)};
  if (s.ok >= 2) {
    s.spread_ms = s.slowest->time_ms - s.fastest->time_ms;
    s.ratio = s.fastest->time_ms > 0 ? s.slowest->time_ms / s.fastest->time_ms : nan;
  }
  return s;
}

}  // namespace warpsim::analysis
