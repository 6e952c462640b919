#pragma once
// The right-hand side of a sweep-spec line: one value (a fixed parameter), a list
// (`unroll = 1, 2, 4, 8`) or a range (`block = 32..1024 step 32`, `bytes = 1K..1M x 2`).
// Values come back as text, exactly as each point will pass them to the simulator, so a float
// range gives "0.15" and not "0.15000000000000002".
#include <string>
#include <vector>

namespace warpsim::sweeps {

struct AxisValues {
  std::vector<std::string> values;
  bool is_axis = false;  // a list or a range (even of one value), as opposed to a single value
};

// Throws InputError(where, ...) for an empty value, an empty list item, or a malformed range.
// Integers may carry a binary size suffix: 4K = 4096, 1M = 1048576, 1G.
AxisValues parse_axis_values(const std::string& text, const std::string& where);

}  // namespace warpsim::sweeps
