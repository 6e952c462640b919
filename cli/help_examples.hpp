#pragma once
// The examples `warpsim COMMAND --help` ends with: commands a user can paste as they are (from the
// checkout's root: they name its presets, specs and corpus traces).
#include <string>

namespace warpsim::cli {

// "examples:\n  warpsim ...\n" for `command`; empty for a command without examples.
std::string help_examples(const std::string& command);

}  // namespace warpsim::cli
