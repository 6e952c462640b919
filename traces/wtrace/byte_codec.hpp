#pragma once
// Little-endian fixed-width integers, LEB128 varints and zigzag signed varints: the primitives
// of the .wtrace encoding. The reader is bounds-checked and throws DecodeError instead of
// reading past its buffer, so a corrupt (or crafted) file cannot crash it.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::traces::wtrace {

class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
inline std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

class ByteWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<std::uint8_t>(v));
  }
  void svarint(std::int64_t v) { varint(zigzag(v)); }
  void string(std::string_view s) {
    varint(s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  void append(const std::vector<std::uint8_t>& other) { bytes_.insert(bytes_.end(), other.begin(), other.end()); }
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  std::size_t size() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }

 private:
  std::vector<std::uint8_t> bytes_;
};

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

  std::uint8_t u8() {
    need(1);
    return *p_++;
  }
  std::uint32_t u32() {
    need(4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t(p_[i]) << (8 * i);
    p_ += 4;
    return v;
  }
  std::uint64_t u64() {
    need(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(p_[i]) << (8 * i);
    p_ += 8;
    return v;
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1);
      std::uint8_t b = *p_++;
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw DecodeError("varint longer than 10 bytes");
  }
  std::int64_t svarint() { return unzigzag(varint()); }
  std::string string() {
    std::uint64_t n = varint();
    need(n);
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }
  const std::uint8_t* position() const { return p_; }
  void skip(std::uint64_t n) {
    need(n);
    p_ += n;
  }

 private:
  void need(std::uint64_t n) const {
    if (n > static_cast<std::uint64_t>(end_ - p_)) throw DecodeError("data ends early");
  }
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

}  // namespace warpsim::traces::wtrace
