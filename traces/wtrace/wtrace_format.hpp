#pragma once
// Constants of the .wtrace container (see FORMAT.md in this folder): the file magic, the format
// version, the chunk types and the sanity limits a reader applies before allocating.
#include <cstdint>

namespace warpsim::traces::wtrace {

// "\x89WTRACE\n": the high byte catches 7-bit transfers and the newline catches text-mode ones.
inline constexpr std::uint8_t kMagic[8] = {0x89, 'W', 'T', 'R', 'A', 'C', 'E', '\n'};
// The version this warpsim writes; it reads this one and version 1.
inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kOldestReadableVersion = 1;
inline constexpr std::size_t kFileHeaderBytes = 16;   // magic, version u32, flags u32
inline constexpr std::size_t kChunkHeaderBytes = 16;  // type, codec, reserved u16, stored u32, raw u32, crc u32

enum class ChunkType : std::uint8_t {
  Workload = 'W',    // workload name and step count
  Memcpy = 'M',      // one MemcpyHtoD step
  KernelBegin = 'K', // one launch: label, KernelInfo, origin
  Block = 'B',       // version 1: one thread block, its warps' instructions
  BlockData = 'D',   // version 2: a piece of the kernel's zstd stream of block records
  KernelEnd = 'E',   // totals and warnings of the launch just ended
  End = 'Z',         // end of file: the number of chunks before it
};

// How a chunk's payload is stored. Block data chunks are always Stored: they hold pieces of one
// zstd stream per kernel, decompressed as a whole (FORMAT.md).
enum class Codec : std::uint8_t { Stored = 0, Deflate = 1 };

// A chunk larger than this is not something our writer produces: refuse it before allocating.
inline constexpr std::uint32_t kMaxChunkBytes = 1u << 30;

const char* chunk_type_name(std::uint8_t type);

}  // namespace warpsim::traces::wtrace
