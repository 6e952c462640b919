#pragma once
// Trace text one line at a time, with the line number every error message needs. Lines are
// views into an internal buffer (valid until the next call), so reading costs no allocation.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "traces/accelsim/byte_source.hpp"

namespace warpsim::traces::accelsim {

class LineReader {
 public:
  // `path` names the file in messages; `source` supplies its bytes.
  LineReader(std::string path, std::unique_ptr<ByteSource> source);
  explicit LineReader(const std::string& path) : LineReader(path, open_byte_source(path)) {}

  // The next line without its '\n' (and '\r'), or false at the end of the file.
  bool next(std::string_view& line);
  // Number (1-based) of the line `next` returned last.
  std::uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  // "file:line" of the last line, for InputError.
  std::string where() const { return path_ + ":" + std::to_string(line_number_); }
  // An InputError at the last line read, noting when that line was cut off by the end of the
  // file (no newline): the usual sign of a truncated trace.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  bool refill();

  std::string path_;
  std::unique_ptr<ByteSource> source_;
  // Not zeroed: only what the source reads into it is ever touched, so a small file (a
  // kernelslist) costs one page, not the whole chunk.
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last valid byte
  bool eof_ = false;
  bool unterminated_ = false;  // the last line returned had no '\n'

  std::uint64_t line_number_ = 0;
};

}  // namespace warpsim::traces::accelsim
