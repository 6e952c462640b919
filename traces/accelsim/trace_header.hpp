#pragma once
// The "-key = value" lines at the top of a .traceg (FORMAT.md section 2): the launch geometry
// and the facts every instruction line depends on (tracer version, lineinfo, generic windows).
#include <cstdint>
#include <string>

#include "traces/accelsim/line_reader.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::traces::accelsim {

struct TraceHeader {
  KernelInfo info;                  // name, grid, block, nregs, shmem, stream id
  std::uint32_t kernel_id = 0;      // 1-based launch index
  int binary_version = 0;           // SM version the SASS was compiled for (80 = sm_80)
  int tracer_version = 0;           // 0: no version line (legacy); "1.2" reads as 1
  std::string tracer_version_text;  // as written, for `trace info`
  bool lineinfo = false;            // v4+: every instruction line starts with a line number
  std::uint64_t shmem_base = 0;     // generic-address window of shared memory (v3+; 0 = unknown)
  std::uint64_t local_base = 0;     // generic-address window of local memory (v3+; 0 = unknown)
  std::string nvbit_version;
  // The '#' line that ended the header was "#BEGIN_TB" itself (no "#traces format" comment).
  bool ended_at_begin_tb = false;

  // Versions before 3 start every instruction line with "tb_x tb_y tb_z warp".
  bool has_block_fields() const { return tracer_version < 3; }
  // v5 lines end with the instruction's immediate.
  bool has_immediate() const { return tracer_version >= 5; }
};

// Reads header lines up to and including the first line that starts with '#'. Throws
// InputError (file:line) for an unknown key, a malformed value or a missing required key
// (kernel name, grid dim, block dim).
TraceHeader read_trace_header(LineReader& lines);

}  // namespace warpsim::traces::accelsim
