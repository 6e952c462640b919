#pragma once
// The [units] and [latency] parts of a preset: an SM's execution units, how many lanes each
// class has and how long its results take (S2.5, S2.7; unit_pool.hpp, scoreboard.hpp).
#include <cstdint>
#include <vector>

#include "sim/config.hpp"
#include "traces/instruction.hpp"

namespace warpsim::models {

struct UnitsSpec {
  static constexpr const char* kTitle = "SM execution units: lanes and latencies";

  // Lanes per SM of each execution-unit class, by traces::Unit; a warp instruction needs 32
  // lane-slots, so 192 FP32 lanes issue 6 warp instructions per cycle (SPEC S2.5) and 16 SFU
  // lanes one every other cycle.
  std::uint32_t lanes[traces::kUnitCount] = {};
  // Dependent-issue latency in core cycles, by traces::Unit (S2.7). LdSt's is the shared-memory
  // latency: the memory system's answers set a memory instruction's real time.
  std::uint32_t latency[traces::kUnitCount] = {};
  std::uint32_t shared_latency = 0;
  // Cycles from a taken branch's issue until the warp's next instruction may issue: fetching at
  // the target (h100-measured/branch_cost.csv). 0: the next instruction waits only for its
  // operands.
  std::uint32_t taken_branch = 0;

  // Its keys, with type, unit, range and meaning (`warpsim arch show` lists them).
  static std::vector<sim::ParamSpec> params();
  // Reads them from a validated config.
  static UnitsSpec from_config(const sim::Config& config);
};

}  // namespace warpsim::models
