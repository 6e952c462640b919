#include "traces/wtrace/chunk_io.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "sim/errors.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace {
using sim::InputError;

const char* chunk_type_name(std::uint8_t type) {
  switch (static_cast<ChunkType>(type)) {
    case ChunkType::Workload: return "workload";
    case ChunkType::Memcpy: return "memcpy";
    case ChunkType::KernelBegin: return "kernel header";
    case ChunkType::Block: return "thread block";
    case ChunkType::BlockData: return "block data";
    case ChunkType::KernelEnd: return "kernel end";
    case ChunkType::End: return "end of file";
  }
  return "unknown type";
}

namespace {

void encode_header(const ChunkHeader& h, std::uint8_t out[kChunkHeaderBytes]) {
  out[0] = h.type;
  out[1] = h.codec;
  out[2] = out[3] = 0;
  for (int i = 0; i < 4; ++i) {
    out[4 + i] = static_cast<std::uint8_t>(h.stored_bytes >> (8 * i));
    out[8 + i] = static_cast<std::uint8_t>(h.raw_bytes >> (8 * i));
    out[12 + i] = static_cast<std::uint8_t>(h.crc >> (8 * i));
  }
}

// CRC-32 over the first 12 header bytes and the stored payload: a flipped bit anywhere in the
// chunk, header included, is caught.
std::uint32_t chunk_crc(const std::uint8_t header[kChunkHeaderBytes], const std::uint8_t* payload, std::size_t n) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, header, 12);
  if (n) crc = crc32(crc, payload, static_cast<uInt>(n));
  return static_cast<std::uint32_t>(crc);
}

}  // namespace

ChunkWriter::ChunkWriter(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
  if (!file_) throw InputError(path, std::string("cannot create: ") + std::strerror(errno));
  ByteWriter header;
  for (std::uint8_t b : kMagic) header.u8(b);
  header.u32(kFormatVersion);
  header.u32(0);  // flags, none defined
  put(header.bytes().data(), header.size());
}

void ChunkWriter::put(const void* data, std::size_t n) {
  if (n && std::fwrite(data, 1, n, file_.get()) != n) throw InputError(path_, std::string("write failed: ") + std::strerror(errno));
  offset_ += n;
}

void ChunkWriter::write(ChunkType type, const std::vector<std::uint8_t>& payload, bool deflate) {
  if (payload.size() > kMaxChunkBytes) throw InputError(path_, "chunk larger than 1 GiB (one thread block with too many instructions)");
  std::vector<std::uint8_t> compressed(deflate ? compressBound(payload.size()) : 0);
  uLongf compressed_size = compressed.size();
  ChunkHeader h;
  h.type = static_cast<std::uint8_t>(type);
  h.raw_bytes = static_cast<std::uint32_t>(payload.size());
  const std::uint8_t* stored = payload.data();
  if (deflate && compress2(compressed.data(), &compressed_size, payload.data(), payload.size(), 6) == Z_OK &&
      compressed_size < payload.size()) {
    h.codec = static_cast<std::uint8_t>(Codec::Deflate);
    h.stored_bytes = static_cast<std::uint32_t>(compressed_size);
    stored = compressed.data();
  } else {
    h.codec = static_cast<std::uint8_t>(Codec::Stored);
    h.stored_bytes = h.raw_bytes;
  }
  std::uint8_t header[kChunkHeaderBytes];
  encode_header(h, header);
  h.crc = chunk_crc(header, stored, h.stored_bytes);
  encode_header(h, header);
  put(header, sizeof header);
  put(stored, h.stored_bytes);
  ++chunks_;
}

void ChunkWriter::finish() {
  ByteWriter end;
  end.varint(chunks_);
  write(ChunkType::End, end.bytes());
  if (std::fclose(file_.release()) != 0) throw InputError(path_, std::string("write failed: ") + std::strerror(errno));
}

ChunkReader::ChunkReader(std::string path) : path_(std::move(path)), file_(std::fopen(path_.c_str(), "rb")) {
  if (!file_) throw InputError(path_, std::string("cannot open: ") + std::strerror(errno));
  std::fseek(file_.get(), 0, SEEK_END);
  size_ = static_cast<std::uint64_t>(std::ftell(file_.get()));
  std::uint8_t header[kFileHeaderBytes];
  if (size_ < kFileHeaderBytes) throw InputError(path_, "too short to be a .wtrace file (truncated?)");
  read_at(0, header, sizeof header);
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0) throw InputError(path_, "not a .wtrace file (bad magic bytes)");
  ByteReader r(header + 8, 8);
  version_ = r.u32();
  if (version_ < kOldestReadableVersion || version_ > kFormatVersion)
    throw InputError(path_, ".wtrace format version " + std::to_string(version_) + " is not supported (this warpsim reads versions " +
                                std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + ")");
  if (r.u32() != 0) throw InputError(path_, "file header has flags this reader does not know (corrupt, or a newer writer)");
}

void ChunkReader::read_at(std::uint64_t offset, void* data, std::size_t n) {
  if (std::fseek(file_.get(), static_cast<long>(offset), SEEK_SET) != 0 || std::fread(data, 1, n, file_.get()) != n)
    throw InputError(path_, "read failed at byte " + std::to_string(offset));
}

std::string ChunkReader::where(const ChunkLocation& c) const {
  return path_ + ": chunk " + std::to_string(c.index) + " (" + chunk_type_name(c.header.type) + ") at byte " + std::to_string(c.offset);
}

ChunkLocation ChunkReader::locate(std::uint64_t offset, std::uint64_t index) {
  ChunkLocation loc;
  loc.offset = offset;
  loc.index = index;
  std::string here = path_ + ": chunk " + std::to_string(index) + " at byte " + std::to_string(offset);
  if (offset + kChunkHeaderBytes > size_) throw InputError(here, "file ends inside the chunk header (truncated)");
  std::uint8_t raw[kChunkHeaderBytes];
  read_at(offset, raw, sizeof raw);
  ByteReader r(raw, sizeof raw);
  loc.header.type = r.u8();
  loc.header.codec = r.u8();
  if (r.u8() != 0 || r.u8() != 0) throw InputError(here, "reserved chunk-header bytes are not zero: corrupt header");
  loc.header.stored_bytes = r.u32();
  loc.header.raw_bytes = r.u32();
  loc.header.crc = r.u32();
  if (loc.header.stored_bytes > kMaxChunkBytes || loc.header.raw_bytes > kMaxChunkBytes)
    throw InputError(here, "chunk size above 1 GiB: corrupt header");
  // Deflate cannot expand more than about 1032:1; a larger claimed raw size is corruption, and
  // must be refused before it is allocated.
  if (loc.header.raw_bytes > std::uint64_t(loc.header.stored_bytes) * 1040 + 1024)
    throw InputError(here, "chunk claims an impossible uncompressed size: corrupt header");
  if (offset + kChunkHeaderBytes + loc.header.stored_bytes > size_)
    throw InputError(here, "file ends inside the chunk (needs " + std::to_string(loc.header.stored_bytes) + " payload bytes; truncated)");
  return loc;
}

std::vector<std::uint8_t> ChunkReader::read(const ChunkLocation& c) {
  std::vector<std::uint8_t> stored(c.header.stored_bytes);
  if (!stored.empty()) read_at(c.offset + kChunkHeaderBytes, stored.data(), stored.size());
  std::uint8_t header[kChunkHeaderBytes];
  encode_header(c.header, header);
  if (chunk_crc(header, stored.data(), stored.size()) != c.header.crc)
    throw InputError(where(c), "checksum mismatch: the file is corrupt");
  if (c.header.codec == static_cast<std::uint8_t>(Codec::Stored)) {
    if (c.header.raw_bytes != c.header.stored_bytes) throw InputError(where(c), "stored chunk with two different sizes");
    return stored;
  }
  if (c.header.codec != static_cast<std::uint8_t>(Codec::Deflate))
    throw InputError(where(c), "unknown compression codec " + std::to_string(c.header.codec));
  std::vector<std::uint8_t> raw(c.header.raw_bytes);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, stored.data(), stored.size()) != Z_OK || raw_size != raw.size())
    throw InputError(where(c), "deflate data does not inflate to the recorded size: the file is corrupt");
  return raw;
}

}  // namespace warpsim::traces::wtrace
