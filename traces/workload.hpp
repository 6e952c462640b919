#pragma once
// What a run executes: a list of steps in order, host-to-device copies and kernel launches,
// as a kernelslist.g describes them; a library kernel is a workload of one launch.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "traces/kernel_source.hpp"

namespace warpsim::traces {

struct MemcpyStep {
  std::uint64_t device_address = 0;
  std::uint64_t bytes = 0;
};

struct LaunchStep {
  std::string label;  // file name or kernel name, for messages
  // Opened only when the launch is reached, so a long command list holds one file at a time.
  std::function<std::unique_ptr<KernelSource>()> open;
};

struct WorkloadStep {
  enum class Kind { Memcpy, Launch } kind;
  MemcpyStep memcpy;
  LaunchStep launch;
};

struct Workload {
  std::string name;
  std::vector<WorkloadStep> steps;
};

}  // namespace warpsim::traces
