#pragma once
// Helpers for tests: run the warpsim binary and capture what it says, find shared files.
#include <string>

namespace warpsim::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `warpsim ARGS` (ARGS is shell-quoted by the caller) and captures both streams.
CommandResult run_warpsim(const std::string& args);
// The same, run from directory `cwd` (relative paths in ARGS are read from there).
CommandResult run_warpsim_in(const std::string& cwd, const std::string& args);
// Path inside ../shared (SPEC, calibration, traces).
std::string shared_path(const std::string& relative);
// A fresh temporary directory for one test.
std::string temp_dir(const std::string& tag);

}  // namespace warpsim::test
