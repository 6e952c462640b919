#pragma once
// Why a scheduler did not issue in a cycle (the stall breakdown of CONTRACT.md). Every
// scheduler-cycle of a run is exactly one of these, Issued included.
#include <cstdint>
#include <string_view>

namespace warpsim::models {

enum class SchedulerState : std::uint8_t {
  Issued,
  NoEligible,        // warps are resident but none has an instruction it could try (e.g. block start)
  AluDependency,     // the closest warp waits on an arithmetic result (S2.1, S2.7)
  MemoryDependency,  // the closest warp waits on a load
  UnitBusy,          // a warp is ready but its execution unit is taken this cycle (S2.5)
  Barrier,           // every resident warp waits at __syncthreads (S2.8)
  Idle,              // no warp of its own (a dispatched block joins the schedulers at its start cycle)
};
inline constexpr int kSchedulerStateCount = 7;

inline std::string_view state_metric(SchedulerState s) {
  switch (s) {
    case SchedulerState::Issued: return "issued";
    case SchedulerState::NoEligible: return "stall_no_eligible";
    case SchedulerState::AluDependency: return "stall_alu_dependency";
    case SchedulerState::MemoryDependency: return "stall_memory_dependency";
    case SchedulerState::UnitBusy: return "stall_unit_busy";
    case SchedulerState::Barrier: return "stall_barrier";
    case SchedulerState::Idle: return "stall_idle";
  }
  return "?";
}

}  // namespace warpsim::models
