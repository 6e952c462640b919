#include "analysis/report/column.hpp"

#include <cmath>
#include <limits>

#include "sim/json.hpp"

namespace warpsim::analysis {

std::size_t Column::size() const {
  return std::visit([](const auto& v) { return v.size(); }, values_);
}

double Column::number(std::size_t row) const {
  if (const auto* i = std::get_if<std::vector<std::int64_t>>(&values_)) return static_cast<double>(i->at(row));
  if (const auto* d = std::get_if<std::vector<double>>(&values_)) return d->at(row);
  return std::numeric_limits<double>::quiet_NaN();
}

std::string Column::text(std::size_t row) const {
  if (const auto* i = std::get_if<std::vector<std::int64_t>>(&values_)) return std::to_string(i->at(row));
  if (const auto* d = std::get_if<std::vector<double>>(&values_)) {
    double v = d->at(row);
    if (std::isnan(v)) return "-";
    // Integral values of a float column (an int parameter some study leaves unset) print as ints.
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
    return sim::json_number(v);  // shortest round-trip text: 0.25, not 0.250000
  }
  return std::get<std::vector<std::string>>(values_).at(row);
}

std::string Column::json(std::size_t row) const {
  if (const auto* i = std::get_if<std::vector<std::int64_t>>(&values_)) return std::to_string(i->at(row));
  if (const auto* d = std::get_if<std::vector<double>>(&values_)) return sim::json_number(d->at(row));
  return sim::json_quote(std::get<std::vector<std::string>>(values_).at(row));
}

bool Column::same(std::size_t a, std::size_t b) const {
  if (const auto* i = std::get_if<std::vector<std::int64_t>>(&values_)) return i->at(a) == i->at(b);
  if (const auto* d = std::get_if<std::vector<double>>(&values_)) {
    double x = d->at(a), y = d->at(b);
    return x == y || (std::isnan(x) && std::isnan(y));
  }
  const auto& s = std::get<std::vector<std::string>>(values_);
  return s.at(a) == s.at(b);
}

}  // namespace warpsim::analysis
