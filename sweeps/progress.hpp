#pragma once
// Progress on stderr (stdout is for results only): a live line on a terminal, one timestamped
// line per interval in a batch log, and always a final summary.
#include <chrono>
#include <cstddef>
#include <string>

namespace warpsim::sweeps {

enum class ProgressMode { Auto, Bar, Log, None };

// "auto", "bar", "log", "none"; InputError otherwise.
ProgressMode parse_progress_mode(const std::string& text);

class Progress {
 public:
  Progress(ProgressMode mode, std::chrono::seconds log_interval, std::size_t total, std::size_t already_done,
           std::string label);
  // Called by the one thread that collects results; cheap when nothing needs printing.
  void update(std::size_t done, std::size_t failed, bool force = false);
  void finish(std::size_t done, std::size_t failed, bool interrupted);

 private:
  std::string status_text(std::size_t done, std::size_t failed) const;
  ProgressMode mode_;
  std::chrono::seconds log_interval_;
  std::size_t total_, resumed_;
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_print_;
  bool printed_bar_ = false;
};

}  // namespace warpsim::sweeps
