#pragma once
// SIGINT and SIGTERM ask a sweep to stop: running points finish and are journaled, no new ones
// start, and the same command resumes later. A second signal ends the process at once (the
// journal is safe either way).
#include <atomic>

namespace warpsim::sweeps {

// Installs the handlers (once) and returns the flag they set.
const std::atomic<bool>& install_stop_handlers();
// The signal that set the flag, 0 if none; the exit code is 128 + it.
int stop_signal_number();

}  // namespace warpsim::sweeps
