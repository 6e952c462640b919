#pragma once
// Splits one trace line into whitespace-separated fields and converts them to numbers, without
// allocating. Every failure throws LineError, which the caller turns into an InputError with
// the file:line it knows and the parser does not.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpsim::traces::accelsim {

// A malformed field; `what()` says which field and what was wrong with it.
class LineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FieldCursor {
 public:
  explicit FieldCursor(std::string_view line) : rest_(line) {}

  // The next field, or false when only whitespace is left.
  bool next(std::string_view& field);
  bool at_end();
  // The next field; LineError naming `what` if the line ends first.
  std::string_view expect(const char* what);

  std::uint64_t hex(const char* what);           // with or without "0x"
  std::uint64_t unsigned_decimal(const char* what);
  std::int64_t signed_decimal(const char* what);  // optional leading '-'

 private:
  std::string_view rest_;
};

// Field parsers on their own, for callers that split differently (header values).
std::uint64_t parse_hex(std::string_view s, const char* what);
std::uint64_t parse_unsigned_decimal(std::string_view s, const char* what);
std::int64_t parse_signed_decimal(std::string_view s, const char* what);

}  // namespace warpsim::traces::accelsim
