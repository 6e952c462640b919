#pragma once
// `warpsim validate --markdown`: the tables as a Markdown document (docs/validation.md is its
// output for `--quick`, and a test checks that the committed file still is): per table its source,
// how many rows pass under each tolerance, its summary figures, and every row outside its tolerance
// with the known gap it is (known_gaps.hpp) and what would close it.
#include <string>
#include <vector>

#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

// `command`: the command line that printed it, named in the document's head.
std::string validation_markdown(const std::vector<ValidationTable>& tables, const std::string& command);

}  // namespace warpsim::analysis
