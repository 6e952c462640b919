#pragma once
// Just enough JSON writing for results: string escaping and number formatting that round-trips.
#include <string>
#include <string_view>

namespace warpsim::sim {

std::string json_quote(std::string_view s);
// Shortest text that reads back as the same double; NaN and infinities become null.
std::string json_number(double v);

}  // namespace warpsim::sim
