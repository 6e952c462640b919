#pragma once
// The names a sweep spec may use: kernels and kernel/policy parameters (CONTRACT.md), and the
// preset parameters (`set.<key>`, from models::arch_params()). Checking them when the spec is
// read turns a typo into an error at file:line instead of a thousand failed points.
#include <string>
#include <vector>

namespace warpsim::sweeps {

const std::vector<std::string>& known_kernels();
const std::vector<std::string>& known_kernel_parameters();
bool is_known_kernel(const std::string& name);
bool is_known_kernel_parameter(const std::string& name);
bool is_known_preset_parameter(const std::string& key);

}  // namespace warpsim::sweeps
