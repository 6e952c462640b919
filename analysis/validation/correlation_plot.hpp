#pragma once
// The correlation scatter of a validation table (validate --plot DIR), as Accel-Sim's correlator
// draws it: simulated against measured time per run, log-log, one colour per group (program),
// the line y = x and the ±10% band around it. Written as SVG by warpsim itself, so an installed
// binary needs no plotting library; the points also go to a CSV beside it for replotting.
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

// Writes DIR/<table>-time.svg and DIR/<table>-time.csv (creating DIR); returns their paths.
// Throws InputError naming the path when a file cannot be written. Nothing for a table without
// time points.
std::vector<std::filesystem::path> write_time_correlation(const ValidationTable& table,
                                                          const std::filesystem::path& dir);

// The SVG document alone (tests read it).
std::string time_correlation_svg(const ValidationTable& table);

}  // namespace warpsim::analysis
