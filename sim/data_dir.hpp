#pragma once
// Where warpsim finds the data files it ships (presets, validation tables).
#include <filesystem>

namespace warpsim::sim {

// $`environment_variable` if set; else <prefix>/share/warpsim/<installed_subdir> when the running
// executable is installed under <prefix>/bin; else `source_dir` (a build tree).
std::filesystem::path data_dir(const char* environment_variable, const char* installed_subdir,
                               const char* source_dir);

}  // namespace warpsim::sim
