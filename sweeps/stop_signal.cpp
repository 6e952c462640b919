#include "sweeps/stop_signal.hpp"

#include <csignal>

namespace warpsim::sweeps {
namespace {

// A signal handler can only reach static storage: this is the one piece of global state, and
// only the handler writes it.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
  std::signal(sig, SIG_DFL);  // the next one is not ignored
}

}  // namespace

const std::atomic<bool>& install_stop_handlers() {
  struct sigaction sa{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_stop;
}

int stop_signal_number() { return g_signal.load(); }

}  // namespace warpsim::sweeps
