#pragma once
// Small text helpers shared by every reader of line-oriented input (INI files, sweep specs,
// Accel-Sim traces). Inline: trace decoding calls them once per line.
#include <string_view>

namespace warpsim::sim {

// `s` without leading and trailing spaces, tabs, carriage returns and newlines.
inline std::string_view trim(std::string_view s) {
  constexpr std::string_view ws = " \t\r\n";
  const auto first = s.find_first_not_of(ws);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(ws) - first + 1);
}

}  // namespace warpsim::sim
