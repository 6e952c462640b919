#pragma once
// Building blocks for the kernels' parameter tables, and the L2 access-policy parameters that
// every kernel accepts (S4.1-S4.5).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::traces::kernels {

class KernelArgs;

sim::ParamSpec int_param(std::string key, std::int64_t default_value, std::string unit, std::string description,
                         double min, double max);
sim::ParamSpec float_param(std::string key, std::string default_value, std::string unit, std::string description,
                           double min, double max);
sim::ParamSpec choice_param(std::string key, std::string default_value, std::vector<std::string> choices,
                            std::string description);

// window_bytes, hit_ratio, hit_prop, miss_prop, set_aside_bytes.
const std::vector<sim::ParamSpec>& l2_policy_params();
bool is_l2_policy_param(const std::string& key);

// `own` followed by l2_policy_params().
std::vector<sim::ParamSpec> with_l2_policy(std::vector<sim::ParamSpec> own);

// Fills info.window (based at `hot_base`, the kernel's hot buffer) and info.set_aside_bytes.
// `sets_set_aside`: the kernel's program reserves the guide's set-aside before it launches
// (persistKernel, persistLoop), so set_aside_bytes = -1 means that one even without a window.
void apply_l2_policy(const KernelArgs& args, std::uint64_t hot_base, KernelInfo& info, bool sets_set_aside = false);

}  // namespace warpsim::traces::kernels
