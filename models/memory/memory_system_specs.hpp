#pragma once
// What the memory system (make_memory_system, memory_system.hpp) is built from: the specs of its
// caches and DRAM, and the few numbers it needs of the rest of the GPU. Held by value, so a caller
// may build one for a GPU that differs from its preset (the sampler's one-SM walk).
#include <cstdint>

#include "models/memory/dram_spec.hpp"
#include "models/memory/l1_spec.hpp"
#include "models/memory/l2_spec.hpp"

namespace warpsim::models {

struct MemorySystemSpecs {
  memory::L1Spec l1;  // one L1 and one read-only cache per SM
  memory::L2Spec l2;
  memory::DramSpec dram;
  std::uint32_t sms = 0;             // gpu.sms
  std::uint64_t core_clock_khz = 0;  // gpu.core_clock_khz: DRAM's and the L2's rates in core cycles
  std::uint32_t shared_latency = 0;  // latency.shared: shared-memory accesses are answered here
};

}  // namespace warpsim::models
