#pragma once
// Writes a large Accel-Sim trace for tests of what does not depend on a trace's content: memory
// and speed over gigabytes of text. The text is generated and xz-compressed as it goes, a block
// at a time, so writing a 1 GB trace holds a few hundred KB; each kernel is one .traceg.xz and
// a kernelslist.g names them.
#include <cstdint>
#include <string>

namespace warpsim::test {

struct SyntheticTrace {
  std::string kernelslist;          // path of the kernelslist.g
  std::uint64_t text_bytes = 0;     // of all kernels, before compression
  std::uint64_t compressed_bytes = 0;
  std::uint64_t instructions = 0;   // warp instructions (instruction lines)
};

// Kernels of blocks of 256 threads, each warp a loop of two coalesced loads, an FFMA and a
// coalesced store over its own part of three arrays of 4-byte elements, until about
// `text_bytes` of text are written over `kernels` kernels. xz at level 1 with an 8 MiB
// dictionary: as fast to write as level 1, the dictionary of xz's default level 6.
SyntheticTrace write_synthetic_traceg(const std::string& dir, std::uint64_t text_bytes, int kernels);

}  // namespace warpsim::test
