#include "traces/kernels/warp_place.hpp"

namespace warpsim::traces::kernels {

WarpPlace place_warp(const KernelInfo& info, std::uint64_t block_id, std::uint32_t warp) {
  WarpPlace p;
  p.block_dim = info.block;
  p.grid_dim = info.grid;
  p.block_idx.x = static_cast<std::uint32_t>(block_id % info.grid.x);
  p.block_idx.y = static_cast<std::uint32_t>(block_id / info.grid.x % info.grid.y);
  p.block_idx.z = static_cast<std::uint32_t>(block_id / (std::uint64_t(info.grid.x) * info.grid.y));
  p.warp = warp;
  p.one_dim = info.block.y == 1 && info.block.z == 1;
  // S1.3: the last warp of a block whose size is not a multiple of 32 has dummy lanes.
  std::uint64_t threads = info.block.count();
  std::uint64_t first = std::uint64_t(warp) * kWarpSize;
  std::uint64_t real = threads > first ? threads - first : 0;
  p.valid_lanes = real >= kWarpSize ? kFullMask : (std::uint32_t(1) << real) - 1;
  return p;
}

}  // namespace warpsim::traces::kernels
