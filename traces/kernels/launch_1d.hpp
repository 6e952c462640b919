#pragma once
// The launch shape shared by the 1-D kernels of calibration/kernels.cu: n elements, `block`
// threads per block, `grid` blocks (0 = derived as main() does: ceil(n / (block x per_thread))).
#include <cstdint>
#include <string>

#include "sim/config.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::traces::kernels {

class KernelArgs;

sim::ParamSpec n_param(std::int64_t default_n = std::int64_t(1) << 20);
sim::ParamSpec block_param(std::int64_t default_block);
sim::ParamSpec grid_param(const std::string& derived_as);
sim::ParamSpec offset_param();

// Reads block and grid, derives grid from `threads_needed` when 0 and rejects a grid that does
// not cover them (when `must_cover`). Returns the launch with name filled in.
KernelInfo launch_1d(KernelArgs& args, const std::string& name, std::uint64_t threads_needed,
                     std::uint64_t per_thread = 1, bool must_cover = true);

}  // namespace warpsim::traces::kernels
