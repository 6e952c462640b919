// warpsim run: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_run(const Args& args) { return not_built_yet("run", "4", args); }

}  // namespace warpsim::cli
