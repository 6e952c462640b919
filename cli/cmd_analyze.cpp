// warpsim analyze: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_analyze(const Args& args) { return not_built_yet("analyze", "7", args); }

}  // namespace warpsim::cli
