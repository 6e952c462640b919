// warpsim report: see CONTRACT.md.
#include "cli/command.hpp"

namespace warpsim::cli {

int cmd_report(const Args& args) { return not_built_yet("report", "7", args); }

}  // namespace warpsim::cli
