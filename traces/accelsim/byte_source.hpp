#pragma once
// Where trace text comes from: a plain file or an xz-compressed one, read in fixed-size pieces
// so that a multi-gigabyte trace never has to fit in memory.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace warpsim::traces::accelsim {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `capacity` bytes; returns how many, 0 at the end. Throws InputError on a read or
  // decompression failure (a truncated .xz is one).
  virtual std::size_t read(char* buffer, std::size_t capacity) = 0;
};

// Opens `path`, decompressing on the fly when it ends in ".xz". Throws InputError if it cannot.
std::unique_ptr<ByteSource> open_byte_source(const std::string& path);
// Bytes already in memory (tests and the fuzz harnesses).
std::unique_ptr<ByteSource> memory_byte_source(std::string bytes);
// How many xz dictionaries this process has mapped afresh rather than taken from an earlier
// decoder that wrote little of its own (byte_source.cpp): what the tests check the keeping by.
std::uint64_t xz_dictionaries_mapped();

}  // namespace warpsim::traces::accelsim
