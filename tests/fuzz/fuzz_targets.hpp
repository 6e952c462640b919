#pragma once
// The bodies of the libFuzzer harnesses (fuzz_*.cc), shared with the Catch2 test that replays
// the kept corpus (tests/traces/test_accelsim_corpus.cpp). Each takes arbitrary bytes and must
// either read them or throw sim::InputError, which it swallows; anything else (another
// exception, a crash, a sanitizer report) is a bug.
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "sim/errors.hpp"
#include "traces/accelsim/byte_source.hpp"
#include "traces/accelsim/field_cursor.hpp"
#include "traces/accelsim/instruction_decoder.hpp"
#include "traces/accelsim/traceg_kernel_source.hpp"
#include "traces/open_workload.hpp"

namespace warpsim::fuzz {

// Reads every traced block of `source`, at most `max_instructions` instructions in all (a fuzzed
// insts count can be large; the point is the parser, not the length).
inline void drain(traces::KernelSource& source, std::uint64_t max_instructions = 1 << 16) {
  traces::Instruction inst;
  std::uint64_t n = 0;
  traces::for_each_block(source, [&](std::uint64_t id) {
    for (auto& w : source.open_block(id))
      while (n < max_instructions && w->next(inst)) ++n;
  });
  source.warnings();
}

// A whole .traceg: header, blocks, warps, lines.
inline void fuzz_traceg(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    traces::accelsim::TracegKernelSource source("fuzz.traceg", [text] { return traces::accelsim::memory_byte_source(text); });
    drain(source);
  } catch (const sim::InputError&) {
  }
}

// One instruction line; the first byte picks the header it is read under (tracer version,
// lineinfo, SM version), so every layout gets fuzzed.
inline void fuzz_line(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  static constexpr int kVersions[] = {0, 1, 3, 4, 5};
  static constexpr int kSm[] = {61, 70, 75, 80, 86, 90, 35, 89};
  traces::accelsim::TraceHeader header;
  header.tracer_version = kVersions[data[0] % 5];
  header.lineinfo = header.tracer_version >= 4 && (data[0] & 0x08);
  header.binary_version = kSm[(data[0] >> 4) & 7];
  header.shmem_base = 0x7f0000000000;
  header.local_base = 0x7f0100000000;
  traces::accelsim::InstructionDecoder decoder(header);
  traces::Instruction inst;
  try {
    decoder.decode(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), inst);
  } catch (const traces::accelsim::LineError&) {
  }
}

// A whole .wtrace file (written to a temporary file: the reader works on files).
inline void fuzz_wtrace(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/warpsim-fuzz-" + std::to_string(getpid()) + ".wtrace";
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  try {
    traces::Workload w = traces::open_workload(path);
    for (const auto& step : w.steps)
      if (step.kind == traces::WorkloadStep::Kind::Launch) {
        auto k = step.launch.open();
        drain(*k);
      }
  } catch (const sim::InputError&) {
  }
}

}  // namespace warpsim::fuzz
