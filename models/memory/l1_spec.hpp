#pragma once
// The [l1] and [readonly] parts of a preset: each SM's L1 data cache and read-only data cache
// (S3.2-S3.6; gpu_memory_system.hpp builds them as SectorCaches).
#include <cstdint>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models::memory {

struct L1Spec {
  static constexpr const char* kTitle = "L1 and read-only data cache, per SM";

  std::uint64_t size_bytes = 0;
  std::uint32_t line_bytes = 0, sector_bytes = 0, ways = 0, hit_latency = 0;
  std::uint32_t replacement = 0;  // L1 and read-only cache: position in ReplacementPolicies
  bool caches_global = false;     // S3.5: Fermi and Hopper yes, Kepler no
  bool stores_allocate = false;   // Hopper: stores allocate L1 lines (memory_stores.cpp); else S3.4
  std::uint64_t readonly_size_bytes = 0;
  std::uint32_t readonly_line_bytes = 0;

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config and refuses a geometry that contradicts itself.
  static L1Spec from_config(const sim::Config& config);
};

}  // namespace warpsim::models::memory
