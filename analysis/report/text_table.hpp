#pragma once
// A plain-text table with columns sized to their contents: the first column left-aligned (a
// label), the others right-aligned so digits line up.
#include <ostream>
#include <string>
#include <vector>

namespace warpsim::analysis {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out, const std::string& indent) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace warpsim::analysis
