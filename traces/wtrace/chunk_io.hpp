#pragma once
// The .wtrace container: a file header, then chunks, each with its own CRC-32 and a payload that
// is stored, deflated, or (block data) a piece of a kernel's zstd stream. Writing appends chunks to a stream; reading fetches one chunk at
// a known offset, checks it and inflates it. Errors name the file, the chunk number and its
// byte offset, so a corrupt file says where it is corrupt.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "traces/wtrace/wtrace_format.hpp"

namespace warpsim::traces::wtrace {

// Closes the file however the owner's constructor ends (a throwing constructor runs no
// destructor of its own: a bare FILE* leaked one descriptor per rejected file, found by fuzzing).
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

class ChunkWriter {
 public:
  // Creates `path` (truncating it) and writes the file header.
  explicit ChunkWriter(const std::string& path);
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  // Writes a chunk, deflated where that makes it smaller unless `deflate` is false (a payload
  // that is compressed already).
  void write(ChunkType type, const std::vector<std::uint8_t>& payload, bool deflate = true);
  // Writes the End chunk and closes the file.
  void finish();
  std::uint64_t bytes_written() const { return offset_; }
  std::uint64_t chunks_written() const { return chunks_; }

 private:
  void put(const void* data, std::size_t n);
  std::string path_;
  FilePtr file_;
  std::uint64_t offset_ = 0;
  std::uint64_t chunks_ = 0;
};

struct ChunkHeader {
  std::uint8_t type = 0;
  std::uint8_t codec = 0;
  std::uint32_t stored_bytes = 0;
  std::uint32_t raw_bytes = 0;
  std::uint32_t crc = 0;
};

// Where a chunk is, for reading it again and for messages.
struct ChunkLocation {
  std::uint64_t offset = 0;  // of its header in the file
  std::uint64_t index = 0;   // 0-based chunk number
  ChunkHeader header;
};

class ChunkReader {
 public:
  // Opens `path` and checks the file header. Throws InputError if it is not a .wtrace or has a
  // format version this reader does not know.
  explicit ChunkReader(std::string path);
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;

  // The chunk header at `offset` (`index` is its number, for messages); throws InputError if
  // the file is truncated there.
  ChunkLocation locate(std::uint64_t offset, std::uint64_t index);
  // Reads, checks and inflates the chunk; throws InputError on a bad checksum or bad data.
  std::vector<std::uint8_t> read(const ChunkLocation& where);
  std::uint64_t next_offset(const ChunkLocation& where) const {
    return where.offset + kChunkHeaderBytes + where.header.stored_bytes;
  }
  std::uint64_t file_size() const { return size_; }
  std::uint32_t version() const { return version_; }
  const std::string& path() const { return path_; }
  // "file.wtrace: chunk 7 (block) at byte 1234"
  std::string where(const ChunkLocation& chunk) const;

 private:
  void read_at(std::uint64_t offset, void* data, std::size_t n);
  std::string path_;
  FilePtr file_;
  std::uint64_t size_ = 0;
  std::uint32_t version_ = 0;
};

}  // namespace warpsim::traces::wtrace
