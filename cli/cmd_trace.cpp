// warpsim trace: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_trace(const Args& args) { return not_built_yet("trace", "3", args); }

}  // namespace warpsim::cli
