#pragma once
// The [gpu] part of a preset: which GPU this is and what the rest of the model is counted in
// (its SMs, the core clock). Components that need the SM count or the core clock are handed
// those numbers, not this spec.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::models {

struct GpuSpec {
  static constexpr const char* kTitle = "GPU";

  std::string name;    // "NVIDIA Tesla K20X"
  int sm_version = 0;  // 20, 35, 90: selects the kernel library's SASS
  std::uint32_t sms = 0;
  std::uint64_t core_clock_khz = 0;

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config.
  static GpuSpec from_config(const sim::Config& config);
};

}  // namespace warpsim::models
