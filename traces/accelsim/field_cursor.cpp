#include "traces/accelsim/field_cursor.hpp"

namespace warpsim::traces::accelsim {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

[[noreturn]] void fail(const char* what, std::string_view s, const char* problem) {
  std::string shown(s.substr(0, 40));
  throw LineError(std::string(what) + " '" + shown + (s.size() > 40 ? "...'" : "'") + ": " + problem);
}

}  // namespace

bool FieldCursor::next(std::string_view& field) {
  std::size_t i = 0;
  while (i < rest_.size() && is_space(rest_[i])) ++i;
  if (i == rest_.size()) {
    rest_ = {};
    return false;
  }
  std::size_t j = i;
  while (j < rest_.size() && !is_space(rest_[j])) ++j;
  field = rest_.substr(i, j - i);
  rest_ = rest_.substr(j);
  return true;
}

bool FieldCursor::at_end() {
  std::size_t i = 0;
  while (i < rest_.size() && is_space(rest_[i])) ++i;
  return i == rest_.size();
}

std::string_view FieldCursor::expect(const char* what) {
  std::string_view field;
  if (!next(field)) throw LineError(std::string("line ends before ") + what);
  return field;
}

std::uint64_t FieldCursor::hex(const char* what) { return parse_hex(expect(what), what); }
std::uint64_t FieldCursor::unsigned_decimal(const char* what) { return parse_unsigned_decimal(expect(what), what); }
std::int64_t FieldCursor::signed_decimal(const char* what) { return parse_signed_decimal(expect(what), what); }

std::uint64_t parse_hex(std::string_view s, const char* what) {
  std::string_view digits = s;
  if (digits.size() >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
  if (digits.empty()) fail(what, s, "no hex digits");
  // Skip leading zeros so that "0x%016lx" of a 64-bit value is accepted but 17 significant
  // digits are not.
  std::size_t i = 0;
  while (i + 1 < digits.size() && digits[i] == '0') ++i;
  if (digits.size() - i > 16) fail(what, s, "hex value wider than 64 bits");
  std::uint64_t v = 0;
  for (; i < digits.size(); ++i) {
    char c = digits[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else fail(what, s, "bad hex digit");
    v = (v << 4) | d;
  }
  return v;
}

std::uint64_t parse_unsigned_decimal(std::string_view s, const char* what) {
  if (s.empty()) fail(what, s, "empty number");
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') fail(what, s, "not a decimal number");
    unsigned d = c - '0';
    if (v > (UINT64_MAX - d) / 10) fail(what, s, "number too large");
    v = v * 10 + d;
  }
  return v;
}

std::int64_t parse_signed_decimal(std::string_view s, const char* what) {
  bool negative = !s.empty() && s[0] == '-';
  std::string_view digits = negative ? s.substr(1) : s;
  std::uint64_t magnitude = parse_unsigned_decimal(digits, what);
  // The v5 immediate is an IMM_UINT64 printed in decimal, so the full unsigned range is legal
  // too; it wraps into int64 like the two's-complement value it is.
  if (negative) {
    if (magnitude > std::uint64_t(INT64_MAX) + 1) fail(what, s, "number too large");
    return static_cast<std::int64_t>(0 - magnitude);
  }
  return static_cast<std::int64_t>(magnitude);
}

}  // namespace warpsim::traces::accelsim
