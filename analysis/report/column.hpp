#pragma once
// One 1-D column of a sweep result, in the type the file stores it: parameters are int64, float64
// (NaN where a study leaves them unset) or strings, so the report keeps each value as written
// instead of forcing everything through double (an int64 like persist_bytes prints exactly).
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace warpsim::analysis {

class Column {
 public:
  using Values = std::variant<std::vector<std::int64_t>, std::vector<double>, std::vector<std::string>>;

  Column() = default;
  explicit Column(Values values) : values_(std::move(values)) {}

  std::size_t size() const;
  bool is_number() const { return !std::holds_alternative<std::vector<std::string>>(values_); }
  // The value as a double (NaN for strings), for sorting and arithmetic.
  double number(std::size_t row) const;
  // The value as a person reads it: 128, 0.25, "hopper-h100".
  std::string text(std::size_t row) const;
  // The value as a JSON literal: numbers bare (NaN -> null), strings quoted.
  std::string json(std::size_t row) const;
  // Same value in two rows; NaN equals NaN here (both rows leave the parameter unset).
  bool same(std::size_t a, std::size_t b) const;

 private:
  Values values_;
};

}  // namespace warpsim::analysis
