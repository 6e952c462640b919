#include "traces/kernels/launch_1d.hpp"

#include "traces/kernels/kernel_args.hpp"
#include "traces/kernels/param_specs.hpp"

namespace warpsim::traces::kernels {

sim::ParamSpec n_param(std::int64_t default_n) {
  // The kernels take n as an int and index with 32-bit unsigned arithmetic.
  return int_param("n", default_n, "elements", "number of array elements (floats)", 1, 2147483647.0);
}

sim::ParamSpec block_param(std::int64_t default_block) {
  return int_param("block", default_block, "threads", "threads per block (x); 1..1024", 1, 1024);
}

sim::ParamSpec grid_param(const std::string& derived_as) {
  return int_param("grid", 0, "blocks", "blocks in the grid; 0 = derived as in kernels.cu: " + derived_as, 0,
                   2147483647.0);
}

sim::ParamSpec offset_param() {
  return int_param("offset", 0, "elements", "misalignment k = i + offset of the offset access", 0, 2147483647.0);
}

KernelInfo launch_1d(KernelArgs& args, const std::string& name, std::uint64_t threads_needed,
                     std::uint64_t per_thread, bool must_cover) {
  KernelInfo info;
  info.name = name;
  std::uint64_t block = static_cast<std::uint64_t>(args.integer("block"));
  std::uint64_t grid = static_cast<std::uint64_t>(args.integer("grid"));
  std::uint64_t per_block = block * per_thread;
  if (grid == 0) {
    grid = (threads_needed + per_block - 1) / per_block;
    if (grid == 0) grid = 1;
    args.resolve("grid", static_cast<std::int64_t>(grid));
  } else if (must_cover && grid * per_block < threads_needed) {
    args.reject("grid", std::to_string(grid) + " blocks x " + std::to_string(per_block) + " elements cover " +
                            std::to_string(grid * per_block) + " < " + std::to_string(threads_needed) +
                            " elements; use grid=0 to derive it");
  }
  // blockIdx.x * blockDim.x must stay a 32-bit index, as in the kernels' unsigned arithmetic.
  if (grid * per_block > (std::uint64_t(1) << 32))
    args.reject("grid", "grid x block x elements per thread exceeds 2^32 threads");
  info.grid = Dim3{static_cast<std::uint32_t>(grid), 1, 1};
  info.block = Dim3{static_cast<std::uint32_t>(block), 1, 1};
  return info;
}

}  // namespace warpsim::traces::kernels
