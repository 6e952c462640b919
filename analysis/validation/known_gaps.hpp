#pragma once
// Validation rows known not to meet their tolerance yet, each with the reason and what would close
// it. The test suite holds every other row of the quick tables to its tolerance and these to
// failing, so a gap that closes is news (take it off the list); `validate --markdown` prints the
// reasons beside the rows (docs/validation.md).
#include <string>
#include <vector>

namespace warpsim::analysis {

struct KnownGap {
  // The row's quantity; one '*' stands for any text, for a family of rows of which some may pass
  // (those are not held to failing).
  std::string quantity;
  std::string reason;
  bool matches(const std::string& row_quantity) const;
  bool family() const { return quantity.find('*') != std::string::npos; }
};

// The known gaps of table `table` (none for a table without any).
const std::vector<KnownGap>& known_gaps(const std::string& table);
// The gap of `table` that `quantity` is, or nullptr.
const KnownGap* known_gap(const std::string& table, const std::string& quantity);

}  // namespace warpsim::analysis
