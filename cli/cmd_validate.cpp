// warpsim validate: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_validate(const Args& args) { return not_built_yet("validate", "7", args); }

}  // namespace warpsim::cli
