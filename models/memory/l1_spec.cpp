#include "models/memory/l1_spec.hpp"

#include "models/memory/replacement_policies.hpp"
#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models::memory {

std::vector<sim::ParamSpec> L1Spec::params() {
  using namespace sim::param;
  return {
      // Cache sizes are bounded by what the host can hold (~40 bytes of state per line, per SM for
      // L1): 16x the largest real L1 (256 KB) and 8x the largest real L2 (l2_spec.cpp) leave room
      // for what-ifs.
      integer("l1.size_bytes", "bytes", "L1 data cache per SM", 0, 4 << 20),
      integer("l1.line_bytes", "bytes", "L1 line size (S3.2)", 32, 1024),
      integer("l1.sector_bytes", "bytes", "L1 sector size (Hopper: 4 sectors per line)", 32, 1024),
      integer("l1.ways", "ways", "L1 associativity", 1, 1024),
      integer("l1.hit_latency", "cycles", "L1 hit latency", 1, 10000),
      choice("l1.replacement", ReplacementPolicies::names(),
             "replacement in the L1 and the read-only cache: " + ReplacementPolicies::summary()),
      flag("l1.caches_global", "global loads are cached in L1 (S3.5: Fermi yes, Kepler no)"),
      flag("l1.stores_allocate",
           "global stores write through and allocate their line in L1 without fetching it (Volta and later); "
           "off: a store invalidates the line it hits (S3.4)"),
      integer("readonly.size_bytes", "bytes", "read-only data cache per SM (0: none)", 0, 4 << 20),
      integer("readonly.line_bytes", "bytes", "read-only cache granularity (S3.6)", 32, 1024),
  };
}

L1Spec L1Spec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  L1Spec s;
  s.size_bytes = read.u64("l1.size_bytes");
  s.line_bytes = read.u32("l1.line_bytes");
  s.sector_bytes = read.u32("l1.sector_bytes");
  s.ways = read.u32("l1.ways");
  s.replacement = read.choice<ReplacementPolicies>("l1.replacement");
  s.hit_latency = read.u32("l1.hit_latency");
  s.caches_global = read.flag("l1.caches_global");
  s.stores_allocate = read.flag("l1.stores_allocate");
  s.readonly_size_bytes = read.u64("readonly.size_bytes");
  s.readonly_line_bytes = read.u32("readonly.line_bytes");

  read.require(s.line_bytes % s.sector_bytes == 0, "l1.sector_bytes", {"l1.line_bytes"}, "must divide l1.line_bytes");
  // A cache is whole sets (its size rounds down to them): less than one would be a set bigger
  // than what was asked for.
  read.require(s.size_bytes == 0 || s.size_bytes >= std::uint64_t{s.line_bytes} * s.ways, "l1.size_bytes",
               {"l1.line_bytes", "l1.ways"}, "less than one set (l1.line_bytes x l1.ways); 0 means no L1");
  read.require(s.readonly_size_bytes == 0 || s.readonly_size_bytes >= std::uint64_t{s.readonly_line_bytes} * s.ways,
               "readonly.size_bytes", {"readonly.line_bytes", "l1.ways"},
               "less than one set (readonly.line_bytes x l1.ways); 0 means no read-only cache");
  return s;
}

}  // namespace warpsim::models::memory
