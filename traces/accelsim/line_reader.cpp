#include "traces/accelsim/line_reader.hpp"

#include <algorithm>
#include <cstring>

#include "sim/errors.hpp"

namespace warpsim::traces::accelsim {
namespace {
// Longest line we accept: a list_all line of 32 addresses is under 700 bytes; anything near a
// megabyte is a file that is not a trace (or has lost its newlines), and we say so instead of
// growing the buffer without limit.
constexpr std::size_t kMaxLine = 1 << 20;
constexpr std::size_t kChunk = 256 * 1024;
// The first read asks for less: a trace's header is read on the simulation's thread when the
// launch is opened (its blocks then on a thread of their own), and from a .traceg.xz a whole
// chunk is a quarter megabyte decompressed there, ~5% of bfs's simulation thread for 16
// launches (perf). A header is well under 1 KiB.
constexpr std::size_t kFirstRead = 16 * 1024;
}  // namespace

LineReader::LineReader(std::string path, std::unique_ptr<ByteSource> source)
    : path_(std::move(path)), source_(std::move(source)),
      buffer_(std::make_unique_for_overwrite<char[]>(kChunk)),
      capacity_(kChunk) {}

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the unfinished line, move it to the front, read after it.
  std::size_t pending = end_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, pending);
    begin_ = 0;
    end_ = pending;
  }
  if (end_ == capacity_) {
    if (capacity_ >= kMaxLine)
      throw sim::InputError(path_ + ":" + std::to_string(line_number_ + 1), "line longer than 1 MiB: not a trace file?");
    auto larger = std::make_unique_for_overwrite<char[]>(capacity_ * 2);
    std::memcpy(larger.get(), buffer_.get(), end_);
    buffer_ = std::move(larger);
    capacity_ *= 2;
  }
  const std::size_t room = capacity_ - end_;
  std::size_t n = source_->read(buffer_.get() + end_, line_number_ == 0 && end_ == 0 ? std::min(room, kFirstRead) : room);
  if (n == 0) eof_ = true;
  end_ += n;
  return n > 0;
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;
  for (;;) {
    const char* start = buffer_.get() + scanned;
    const void* nl = std::memchr(start, '\n', end_ - scanned);
    if (nl) {
      std::size_t pos = static_cast<const char*>(nl) - buffer_.get();
      std::size_t len = pos - begin_;
      if (len > 0 && buffer_[pos - 1] == '\r') --len;
      line = std::string_view(buffer_.get() + begin_, len);
      begin_ = pos + 1;
      ++line_number_;
      unterminated_ = false;
      return true;
    }
    std::size_t offset = end_ - begin_;  // bytes already searched, relative to begin_
    if (!refill()) break;
    scanned = begin_ + offset;
  }
  if (begin_ == end_) return false;
  // The last line has no newline.
  std::size_t len = end_ - begin_;
  if (buffer_[end_ - 1] == '\r') --len;
  line = std::string_view(buffer_.get() + begin_, len);
  begin_ = end_;
  ++line_number_;
  unterminated_ = true;
  return true;
}

void LineReader::fail(const std::string& what) const {
  throw sim::InputError(where(), unterminated_ ? what + " (the file ends in the middle of this line: truncated?)" : what);
}

}  // namespace warpsim::traces::accelsim
