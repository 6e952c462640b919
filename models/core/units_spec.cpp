#include "models/core/units_spec.hpp"

#include "sim/param_builders.hpp"
#include "sim/spec_reader.hpp"

namespace warpsim::models {
namespace {

// More issue lanes per SM than any GPU has by far (32,768 warp instructions a cycle); unit pools
// keep their credits in 32 bits (unit_pool.hpp).
constexpr double kMaxLanes = 1 << 20;

}  // namespace

std::vector<sim::ParamSpec> UnitsSpec::params() {
  using namespace sim::param;
  return {
      integer("units.int_lanes", "lanes", "integer ALU lanes per SM", 1, kMaxLanes),
      integer("units.fp32_lanes", "lanes", "FP32 CUDA-core lanes per SM (S2.5)", 1, kMaxLanes),
      integer("units.fp64_lanes", "lanes", "FP64 (DP) lanes per SM (S2.5)", 1, kMaxLanes),
      integer("units.sfu_lanes", "lanes", "special-function lanes per SM (S2.5)", 1, kMaxLanes),
      integer("units.ldst_lanes", "lanes", "load/store lanes per SM (S2.5)", 1, kMaxLanes),
      integer("units.tensor_lanes", "lanes", "tensor-core issue lanes per SM (32 = one warp MMA per cycle)", 1, kMaxLanes),
      integer("units.control_lanes", "lanes", "branch/control issue lanes per SM", 1, kMaxLanes),

      integer("latency.int", "cycles", "dependent-issue latency of integer ALU instructions (S2.7)", 1, 10000),
      integer("latency.fp32", "cycles", "dependent-issue latency of FP32 instructions (S2.7)", 1, 10000),
      integer("latency.fp64", "cycles", "dependent-issue latency of FP64 instructions", 1, 10000),
      integer("latency.sfu", "cycles", "dependent-issue latency of SFU instructions", 1, 10000),
      integer("latency.tensor", "cycles", "dependent-issue latency of tensor-core instructions", 1, 10000),
      integer("latency.control", "cycles", "latency of branches and other control instructions", 1, 10000),
      integer("latency.shared", "cycles", "shared-memory load latency without bank conflicts", 1, 10000),
      integer("latency.taken_branch", "cycles",
              "from a taken branch's issue to the warp's next instruction's (0: its operands decide)", 0, 10000),
  };
}

UnitsSpec UnitsSpec::from_config(const sim::Config& config) {
  using traces::Unit;
  const sim::SpecReader read(config);
  UnitsSpec s;
  auto set_unit = [&](Unit u, const char* lanes, const char* latency) {
    s.lanes[static_cast<int>(u)] = read.u32(lanes);
    s.latency[static_cast<int>(u)] = read.u32(latency);
  };
  set_unit(Unit::Int, "units.int_lanes", "latency.int");
  set_unit(Unit::Fp32, "units.fp32_lanes", "latency.fp32");
  set_unit(Unit::Fp64, "units.fp64_lanes", "latency.fp64");
  set_unit(Unit::Sfu, "units.sfu_lanes", "latency.sfu");
  set_unit(Unit::Tensor, "units.tensor_lanes", "latency.tensor");
  set_unit(Unit::Control, "units.control_lanes", "latency.control");
  s.lanes[static_cast<int>(Unit::LdSt)] = read.u32("units.ldst_lanes");
  s.latency[static_cast<int>(Unit::LdSt)] = read.u32("latency.shared");  // memory answers set the real time
  s.shared_latency = read.u32("latency.shared");
  s.taken_branch = read.u32("latency.taken_branch");
  return s;
}

}  // namespace warpsim::models
