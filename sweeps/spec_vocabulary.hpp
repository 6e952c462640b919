#pragma once
// The names and values a sweep spec may use, asked of the tables that define them: the kernel
// library's parameter specs (traces/kernels) and the preset parameters (models::arch_params()).
// Checking them when the spec is read turns a typo into an error at file:line instead of a
// thousand failed points.
#include <string>
#include <vector>

namespace warpsim::sweeps {

std::vector<std::string> known_kernels();
// Throws InputError(where, ...) for an unknown kernel.
void check_kernel(const std::string& kernel, const std::string& where);
// Throws InputError(where, ...) unless `kernel` has parameter `name` and `value` is valid for it.
// An empty kernel means a trace: only the L2-policy parameters apply.
void check_kernel_parameter(const std::string& kernel, const std::string& name, const std::string& value,
                            const std::string& where);
// `key` is a preset parameter (sm.max_blocks) and `value` valid for it.
void check_preset_parameter(const std::string& key, const std::string& value, const std::string& where);

}  // namespace warpsim::sweeps
