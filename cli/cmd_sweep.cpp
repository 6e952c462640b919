// warpsim sweep: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_sweep(const Args& args) { return not_built_yet("sweep", "6", args); }

}  // namespace warpsim::cli
