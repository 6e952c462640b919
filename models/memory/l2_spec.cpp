#include "models/memory/l2_spec.hpp"

#include <cstdlib>
#include <sstream>
#include <string>

#include "models/memory/replacement_policies.hpp"
#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models::memory {

std::vector<sim::ParamSpec> L2Spec::params() {
  using namespace sim::param;
  return {
      // 8x the largest real L2: room for what-ifs within what the host can hold (l1_spec.cpp).
      integer("l2.size_bytes", "bytes", "L2 cache, whole GPU", 1024, 1 << 30),
      integer("l2.line_bytes", "bytes", "L2 line size", 32, 1024),
      integer("l2.sector_bytes", "bytes", "L2 sector size", 32, 1024),
      integer("l2.ways", "ways", "L2 associativity", 1, 1024),
      integer("l2.slices", "slices", "L2 slices the address space is interleaved over", 1, 1024),
      integer("l2.hit_latency", "cycles", "L2 hit latency seen by an SM", 1, 10000),
      choice("l2.replacement", ReplacementPolicies::names(),
             "replacement in each L2 set: " + ReplacementPolicies::summary()),
      integer("l2.bytes_per_cycle_per_slice", "bytes/cycle", "L2 slice bandwidth", 1, 4096),
      integer("l2.clock_khz", "kHz", "clock of the L2 slices (their lookup rate counts in its cycles)", 1000, 1e8),
      integer("l2.lookups_per_cycle", "sectors", "tag lookups a slice makes per L2 cycle", 1, 1024),
      real("l2.request_cycles", "cycles",
           "L2 cycles a request (one instruction's sectors of one line) holds its slice's input from the "
           "crossbar, whatever its sectors (0: no such stage)", 0, 64),
      integer("l2.partitions", "partitions",
              "L2 halves (or more) the slices are split into; an SM's request for a line whose home is another "
              "partition is looked up in its own partition first (a copy), then forwarded", 1, 64),
      integer("l2.far_latency", "cycles", "extra round trip of a request forwarded to another partition", 0, 100000),
      text("l2.sm_partitions",
           "the partition each SM is near, one digit per SM in SM order, repeated for SMs past the list (empty: all in 0)"),
      integer("l2.launch_lookups", "sectors",
              "L2 sector lookups every launch makes besides its memory instructions (its closing memory barrier, "
              "instruction and constant fetches), as Nsight Compute counts them", 0, 1e12),
      integer("l2.launch_lookup_hits", "sectors", "of l2.launch_lookups, the hits", 0, 1e12),
      integer("l2.dirty_lines_per_set", "lines",
              "dirty normal/streaming lines a set keeps; a store past it writes the oldest back (0: no limit)", 0,
              1024),
      flag("l2.clean_victims_first",
           "a set replaces a clean line while it holds one, a dirty one only when none is clean (persisting "
           "lines still last); off: the set's eviction class and age alone decide"),
      flag("l2.fill_partial_writes",
           "a store to part of a sector not in L2 fetches the sector from DRAM first (DRAM ECC on)"),
      flag("l2.fill_partial_write_backs",
           "a dirty sector whose stores wrote only some of its bytes, and that L2 never read from DRAM, is read "
           "from DRAM when it is written back (read-modify-write, DRAM ECC on); sectors completed meanwhile are not"),
      flag("l2.slice_pieces",
           "a slice takes two 256-byte pieces 512 bytes apart of each 4 KB, eight slices a 4 KB block, the blocks "
           "in an even rotation (the H200's groups, h200/l2_slice_pairs.csv.xz, though its blocks share slices "
           "otherwise); off: consecutive lines go to consecutive slices"),
      flag("l2.persistence", "CUDA L2 persistence controls are available (S4, cc >= 8.0)"),
      integer("l2.persist_max_bytes", "bytes", "persistingL2CacheMaxSize: largest set-aside (S4.1, S4.7)", 0),
      integer("l2.max_window_bytes", "bytes", "accessPolicyMaxWindowSize (S4.2, S4.7)", 0),
      text("l2.set_aside_write_back_cycles",
           "cycles more a dirty line's write-back holds its L2 slice with 0, 1, 2, ... ways set aside for "
           "persisting lines, space-separated (ways past the list take the last; empty: no cost)"),
      integer("l2.set_aside_write_back_batch", "lines",
              "the write-backs a slice's set-aside cost comes in: it holds the slice for that many lines' "
              "l2.set_aside_write_back_cycles at once, every that many write-backs (1: each its own)", 1, 100000),
  };
}

L2Spec L2Spec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  L2Spec s;
  s.size_bytes = read.u64("l2.size_bytes");
  s.line_bytes = read.u32("l2.line_bytes");
  s.sector_bytes = read.u32("l2.sector_bytes");
  s.ways = read.u32("l2.ways");
  s.replacement = read.choice<ReplacementPolicies>("l2.replacement");
  s.slices = read.u32("l2.slices");
  s.hit_latency = read.u32("l2.hit_latency");
  s.bytes_per_cycle_per_slice = read.u32("l2.bytes_per_cycle_per_slice");
  s.partitions = read.u32("l2.partitions");
  s.clock_khz = read.u64("l2.clock_khz");
  s.lookups_per_cycle = read.u32("l2.lookups_per_cycle");
  s.request_cycles = read.real("l2.request_cycles");
  s.far_latency = read.u32("l2.far_latency");
  s.launch_lookups = read.u64("l2.launch_lookups");
  s.launch_lookup_hits = read.u64("l2.launch_lookup_hits");
  s.dirty_lines_per_set = read.u32("l2.dirty_lines_per_set");
  s.fill_partial_writes = read.flag("l2.fill_partial_writes");
  s.fill_partial_write_backs = read.flag("l2.fill_partial_write_backs");
  s.clean_victims_first = read.flag("l2.clean_victims_first");
  s.persistence = read.flag("l2.persistence");
  s.persist_max_bytes = read.u64("l2.persist_max_bytes");
  s.max_window_bytes = read.u64("l2.max_window_bytes");

  read.require(s.line_bytes % s.sector_bytes == 0, "l2.sector_bytes", {"l2.line_bytes"}, "must divide l2.line_bytes");
  read.require(!s.persistence || s.persist_max_bytes <= s.size_bytes, "l2.persist_max_bytes", {"l2.size_bytes"},
               "exceeds l2.size_bytes");
  read.require(s.slices % s.partitions == 0, "l2.partitions", {"l2.slices"}, "must divide l2.slices");
  // A byte mask a sector (l2_cache.hpp) holds 32 bytes: the stores' masks are per 32-byte piece.
  read.require(!s.fill_partial_write_backs || s.sector_bytes == 32, "l2.fill_partial_write_backs",
               {"l2.sector_bytes"}, "needs 32-byte L2 sectors");
  // Each slice is whole sets (the size rounds down to them, l2_cache.cpp): less than one a slice
  // would be an L2 bigger than what was asked for.
  read.require(s.size_bytes >= std::uint64_t{s.slices} * s.ways * s.line_bytes, "l2.size_bytes",
               {"l2.slices", "l2.ways", "l2.line_bytes"}, "less than one set a slice (l2.slices x l2.ways x l2.line_bytes)");
  read.require(s.launch_lookup_hits <= s.launch_lookups, "l2.launch_lookup_hits", {"l2.launch_lookups"},
               "exceeds l2.launch_lookups");
  const std::string near = read.text("l2.sm_partitions");
  for (std::size_t i = 0; i < near.size(); ++i)
    read.require(near[i] >= '0' && near[i] - '0' < static_cast<int>(s.partitions), "l2.sm_partitions",
                 {"l2.partitions"},
                 "digit " + std::to_string(i + 1) + " ('" + near[i] + "') is not a partition below l2.partitions");
  for (char digit : near) s.sm_partitions.push_back(static_cast<std::uint8_t>(digit - '0'));
  s.slice_pieces = read.flag("l2.slice_pieces");
  s.set_aside_write_back_batch = read.u32("l2.set_aside_write_back_batch");
  std::istringstream costs(read.text("l2.set_aside_write_back_cycles"));
  for (std::string word; costs >> word;) {
    char* end = nullptr;
    const double cycles = std::strtod(word.c_str(), &end);
    read.require(end != word.c_str() && *end == '\0' && cycles >= 0 && cycles <= 1e4, "l2.set_aside_write_back_cycles",
                 {}, "entry " + std::to_string(s.set_aside_write_back_cycles.size() + 1) + " ('" + word +
                         "') is not a number of cycles from 0 to 10000");
    s.set_aside_write_back_cycles.push_back(cycles);
  }
  return s;
}

}  // namespace warpsim::models::memory
