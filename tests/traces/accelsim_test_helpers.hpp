#pragma once
// Helpers shared by the trace tests: build a tiny .traceg in memory, read every instruction of
// a KernelSource, and read the expected numbers of ../shared/traces/README.md.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "traces/accelsim/traceg_kernel_source.hpp"
#include "traces/instruction.hpp"

namespace warpsim::test {

// A v`version` header (grid/block given) followed by `body`.
std::string traceg_header(int version, const std::string& grid = "(1,1,1)", const std::string& block = "(32,1,1)",
                          int binary_version = 80, bool lineinfo = false);

// A one-block, one-warp trace whose single warp holds `lines`.
std::string one_warp_trace(int version, const std::vector<std::string>& lines, int binary_version = 80);

std::unique_ptr<traces::accelsim::TracegKernelSource> source_from_text(const std::string& text,
                                                                        const std::string& name = "test.traceg");

// Every instruction of every warp of every block, in (block, warp, order).
struct DecodedInstruction {
  std::uint64_t block = 0;
  std::size_t warp = 0;
  traces::Instruction inst;
};
std::vector<DecodedInstruction> read_all(traces::KernelSource& source);

// Decodes the first instruction of a one-warp trace.
traces::Instruction decode_one(int version, const std::string& line, int binary_version = 80);

// Field-by-field equality (addresses of active lanes of memory instructions).
bool same_instruction(const traces::Instruction& a, const traces::Instruction& b, std::string* why = nullptr);

struct ReadmeRow {
  std::string folder;
  std::uint64_t blocks = 0, threads = 0, instruction_lines = 0;
};
// The table of ../shared/traces/README.md, parsed at test time so that the file stays the
// single source of the expected numbers.
std::vector<ReadmeRow> readme_rows();

}  // namespace warpsim::test
