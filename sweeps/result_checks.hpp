#pragma once
// The checks every reader of a result file makes (sweep merge's read_result_file, report's
// read_result_table), so that a damaged or foreign file gets the same message from both: each
// throws sim::InputError naming the file (`where`) and what is wrong.
#include <cstddef>
#include <string>
#include <vector>

#include "sweeps/h5_util.hpp"

namespace warpsim::sweeps {

// Opens `where` and checks that its root says schema = kResultSchema.
h5::Handle open_result_file(const std::string& where);
// Every dataset of `names` exists: "not a complete warpsim sweep result (no column /NAME)".
void require_columns(hid_t file, const std::string& where, const std::vector<std::string>& names);
// A column holds a row per point: "column /NAME has R rows, /point has P".
void require_rows(const std::string& where, const std::string& name, std::size_t rows, std::size_t points);
// /config, the resolved spec: exactly one string.
std::string read_config_text(hid_t file, const std::string& where);

}  // namespace warpsim::sweeps
