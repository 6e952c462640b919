// warpsim kernels: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_kernels(const Args& args) { return not_built_yet("kernels", "3", args); }

}  // namespace warpsim::cli
