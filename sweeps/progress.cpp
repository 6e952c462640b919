#include "sweeps/progress.hpp"
#include "sweeps/result_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "sim/errors.hpp"

namespace warpsim::sweeps {
namespace {

std::string duration_text(double s) {
  char buf[32];
  if (s < 0 || s > 1e8) return "?";
  long t = static_cast<long>(s + 0.5);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

}  // namespace

ProgressMode parse_progress_mode(const std::string& text) {
  if (text == "auto") return ProgressMode::Auto;
  if (text == "bar") return ProgressMode::Bar;
  if (text == "log") return ProgressMode::Log;
  if (text == "none") return ProgressMode::None;
  throw sim::InputError("--progress", "expected auto, bar, log or none, got '" + text + "'");
}

Progress::Progress(ProgressMode mode, std::chrono::seconds log_interval, std::size_t total, std::size_t already_done,
                   std::string label)
    : mode_(mode), log_interval_(log_interval), total_(total), resumed_(already_done), label_(std::move(label)) {
  if (mode_ == ProgressMode::Auto) mode_ = isatty(STDERR_FILENO) ? ProgressMode::Bar : ProgressMode::Log;
  start_ = last_print_ = std::chrono::steady_clock::now();
  if (mode_ == ProgressMode::Log)
    std::fprintf(stderr, "%s %s: %zu points, %zu already done (journal)\n", utc_timestamp().c_str(), label_.c_str(), total_,
                 resumed_);
}

std::string Progress::status_text(std::size_t done, std::size_t failed) const {
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::size_t ran = done - resumed_;
  double rate = elapsed > 0 ? double(ran) / elapsed : 0;
  double eta = rate > 0 ? double(total_ - done) / rate : -1;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%zu/%zu points (%.0f%%), %.2f points/s, ETA %s, %zu failed", done, total_,
                total_ ? 100.0 * double(done) / double(total_) : 100.0, rate, duration_text(eta).c_str(), failed);
  return buf;
}

void Progress::update(std::size_t done, std::size_t failed, bool force) {
  if (mode_ == ProgressMode::None) return;
  auto now = std::chrono::steady_clock::now();
  auto interval = mode_ == ProgressMode::Bar ? std::chrono::milliseconds(200)
                                             : std::chrono::duration_cast<std::chrono::milliseconds>(log_interval_);
  if (!force && now - last_print_ < interval) return;
  last_print_ = now;
  if (mode_ == ProgressMode::Bar) {
    std::fprintf(stderr, "\r\033[K%s: %s", label_.c_str(), status_text(done, failed).c_str());
    printed_bar_ = true;
  } else {
    std::fprintf(stderr, "%s %s: %s\n", utc_timestamp().c_str(), label_.c_str(), status_text(done, failed).c_str());
  }
  std::fflush(stderr);
}

void Progress::finish(std::size_t done, std::size_t failed, bool interrupted) {
  if (printed_bar_) std::fprintf(stderr, "\r\033[K");
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::size_t ran = done - resumed_;
  std::fprintf(stderr, "%s: %s %zu/%zu points in %s (%zu run now, %zu from the journal, %.2f points/s), %zu failed\n",
               label_.c_str(), interrupted ? "interrupted after" : "finished", done, total_,
               duration_text(elapsed).c_str(), ran, resumed_, elapsed > 0 ? double(ran) / elapsed : 0.0, failed);
  std::fflush(stderr);
}

}  // namespace warpsim::sweeps
