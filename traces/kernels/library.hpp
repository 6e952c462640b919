#pragma once
// The synthetic kernel library: every kernel of calibration/kernels.cu (CONTRACT.md names and
// parameter names), as lazily generated per-warp SASS streams. On sm_90 each warp executes
// exactly the dynamic instruction sequence of the cuobjdump listing; sm_20 and sm_35 use
// plausible listings (README.md). Parameters come as "key=value" strings (-p on the CLI).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/config.hpp"
#include "traces/isa_target.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::traces::kernels {

class KernelArgs;

struct KernelDef {
  std::string name;
  std::string description;
  // The kernel's own parameters, then the L2-policy parameters every kernel accepts
  // (l2_policy_params()), in declaration order.
  std::vector<sim::ParamSpec> params;
  // Builds the launch from validated values; may reject combinations (args.reject) and record
  // derived values (args.resolve).
  std::unique_ptr<KernelSource> (*build)(KernelArgs& args);
};

// Every kernel, in CONTRACT.md order. The only global: a constant table.
const std::vector<KernelDef>& library();
const KernelDef* find_kernel(const std::string& name);

struct KernelInstance {
  std::unique_ptr<KernelSource> source;
  // Resolved values of every parameter, declaration order (derived ones such as grid included).
  std::vector<std::pair<std::string, std::string>> params;
};

// Unknown kernel -> InputError listing the known ones; unknown key, bad value or impossible
// combination -> InputError naming "-p key".
KernelInstance make_kernel(const std::string& name, const std::vector<std::string>& assignments,
                           const IsaTarget& isa);

}  // namespace warpsim::traces::kernels
