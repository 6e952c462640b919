#include "models/core/gpu_spec.hpp"

#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models {

std::vector<sim::ParamSpec> GpuSpec::params() {
  using namespace sim::param;
  return {
      text("gpu.name", "marketing name of the modelled board"),
      integer("gpu.sm_version", "", "compute capability x10; selects the SASS the kernel library emits", 10, 200),
      integer("gpu.sms", "SMs", "streaming multiprocessors", 1, 1024),
      integer("gpu.core_clock_khz", "kHz", "SM clock that instruction timing runs on", 1000, 10'000'000),
  };
}

GpuSpec GpuSpec::from_config(const sim::Config& config) {
  const sim::SpecReader read(config);
  GpuSpec s;
  s.name = read.text("gpu.name");
  s.sm_version = static_cast<int>(config.get_int("gpu.sm_version"));
  s.sms = read.u32("gpu.sms");
  s.core_clock_khz = read.u64("gpu.core_clock_khz");
  return s;
}

}  // namespace warpsim::models
