#include "sweeps/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/errors.hpp"
#include "sweeps/result_record.hpp"

namespace warpsim::sweeps {
namespace {

constexpr const char* kJournalMagic = "# warpsim-journal/";

std::string header_line(std::uint64_t fp, std::size_t metric_count) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s2 sweep=%016llx metrics=%zu\n", kJournalMagic,
                static_cast<unsigned long long>(fp), metric_count);
  return buf;
}

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

Journal::Journal(std::filesystem::path path, std::uint64_t sweep_fingerprint, std::size_t metric_count)
    : path_(std::move(path)) {
  const std::string header = header_line(sweep_fingerprint, metric_count);
  bool ends_mid_line = false;
  bool exists = std::filesystem::exists(path_) && std::filesystem::file_size(path_) > 0;
  if (exists) {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    ends_mid_line = !text.empty() && text.back() != '\n';
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    if (line + "\n" != header) {
      // A header cut short by a kill right after creation means nothing was recorded yet.
      if (text.size() < header.size() && header.compare(0, text.size(), text) == 0) {
        exists = false;
      } else if (line.rfind(kJournalMagic, 0) != 0) {
        // Not ours at all: someone else's file, or junk written over it. Say so rather than
        // blame a changed spec.
        std::string shown = line.substr(0, 60);
        for (char& c : shown)
          if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
        throw sim::InputError(path_.string() + ":1",
                              "not a warpsim sweep journal (it begins '" + shown +
                                  "'); delete it to start over, or choose another output with -o");
      } else {
        throw sim::InputError(path_.string() + ":1",
                              "this journal belongs to a different sweep (the spec, the shard, the simulator build or a "
                              "preset it uses changed, and results of two models must not be mixed); delete it to start "
                              "over, or choose another output with -o");
      }
    }
    while (exists && std::getline(lines, line)) {
      if (line.empty()) continue;
      if (auto r = decode_result(line, metric_count)) finished_[r->index] = std::move(*r);
      else ++damaged_lines_;
    }
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw sim::InputError(path_.string(), std::string("cannot open the journal: ") + std::strerror(errno));
  if (!exists) {
    if (::ftruncate(fd_, 0) != 0) throw std::runtime_error("cannot truncate " + path_.string());
    write_all(fd_, header, path_);
  } else if (ends_mid_line) {
    // The last run died mid-record: end that line so the next record starts on its own.
    write_all(fd_, "\n", path_);
  }
  sync();
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const PointResult& r) { write_all(fd_, encode_result(r), path_); }

void Journal::sync() {
  if (fd_ >= 0) ::fsync(fd_);
}

void Journal::remove() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::filesystem::remove(path_);
}

}  // namespace warpsim::sweeps
