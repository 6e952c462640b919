#pragma once
// Error types shared by every layer. The front door maps them to exit codes:
// InputError -> 2 (the user's input is wrong and the message says where), anything else -> 3.
#include <stdexcept>
#include <string>

namespace warpsim::sim {

// Bad input: a malformed file, an unknown key, an impossible parameter. `where` is "file:line",
// "--set key" or a parameter name, so the user can find what to fix.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& where, const std::string& what)
      : std::runtime_error(where.empty() ? what : where + ": " + what) {}
};

// The simulation stopped making progress while work was pending: a model bug or an input that
// can never complete (e.g. a barrier that not every warp reaches).
class DeadlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace warpsim::sim
