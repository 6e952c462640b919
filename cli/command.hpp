#pragma once
// The warpsim front door: a table of subcommands, each in its own file, each a function from
// its arguments to an exit code. No model logic lives here, only wiring.
#include <string>
#include <vector>

namespace warpsim::cli {

// Exit codes of CONTRACT.md.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 2;
inline constexpr int kExitInternalError = 3;

using Args = std::vector<std::string>;  // arguments after the subcommand name

struct Command {
  const char* name;
  const char* usage;    // one line, after "warpsim "
  const char* summary;  // one sentence
  int (*main)(const Args& args);
};

const std::vector<Command>& commands();

// Subcommands; each defined in cmd_<name>.cpp.
int cmd_run(const Args&);
int cmd_sweep(const Args&);
int cmd_report(const Args&);
int cmd_arch(const Args&);
int cmd_kernels(const Args&);
int cmd_trace(const Args&);
int cmd_analyze(const Args&);
int cmd_validate(const Args&);

// For subcommands whose model is not built yet: answers --help with the usage; otherwise says so
// on stderr and returns 2.
int not_built_yet(const char* name, const char* issue, const Args& args);

}  // namespace warpsim::cli
