#pragma once
// Where a warp sits in the launch: its block, its index in the block and which of its lanes are
// real threads. Threads form warps by linear index dimX*(dimY*z + y) + x, 32 per warp (S1.2);
// lanes past the block's last thread are dummies that are never active (S1.3).
#include <cstdint>

#include "traces/instruction.hpp"
#include "traces/kernel_source.hpp"

namespace warpsim::traces::kernels {

struct WarpPlace {
  Dim3 block_idx;       // blockIdx
  Dim3 block_dim;       // blockDim
  Dim3 grid_dim;        // gridDim
  std::uint32_t warp = 0;  // warp index inside the block
  std::uint32_t valid_lanes = kFullMask;
  // A 1-D block (blockDim.y = blockDim.z = 1): threadIdx.x is the linear index, no division on
  // the per-lane address path.
  bool one_dim = true;

  // Linear thread index in the block of `lane` (S1.2).
  std::uint32_t thread(int lane) const { return warp * kWarpSize + static_cast<std::uint32_t>(lane); }
  std::uint32_t tid_x(int lane) const { return one_dim ? thread(lane) : thread(lane) % block_dim.x; }
  std::uint32_t tid_y(int lane) const { return one_dim ? 0 : thread(lane) / block_dim.x % block_dim.y; }
  std::uint32_t tid_z(int lane) const { return one_dim ? 0 : thread(lane) / (block_dim.x * block_dim.y); }
  // blockIdx.x * blockDim.x + threadIdx.x in 32-bit unsigned arithmetic, as the kernels compute it.
  std::uint32_t global_x(int lane) const { return block_idx.x * block_dim.x + tid_x(lane); }
};

// Block `block_id` (x fastest, then y, then z) and warp `warp` of a launch.
WarpPlace place_warp(const KernelInfo& info, std::uint64_t block_id, std::uint32_t warp);

// Calls f(lane) for every lane set in mask, lowest first. A full warp, the common case, takes
// a plain counted loop the compiler can vectorise.
template <class F>
inline void for_each_lane(std::uint32_t mask, F&& f) {
  if (mask == kFullMask) {
    for (int lane = 0; lane < kWarpSize; ++lane) f(lane);
    return;
  }
  while (mask) {
    int lane = __builtin_ctz(mask);
    f(lane);
    mask &= mask - 1;
  }
}

// A Logic's linear_address (sass_warp_stream.hpp) for lanes that access 4-byte elements
// element(lane) of the array at `base`: they are consecutive (4 bytes apart) when the block is
// 1-D and the element, a 32-bit unsigned index as the kernels compute it, does not wrap inside
// the warp; else 0.
template <class Element>
inline std::uint32_t consecutive_elements(const WarpPlace& w, std::uint32_t mask, std::uint64_t base,
                                          Element&& element, std::uint64_t& first) {
  if (!w.one_dim) return 0;
  const std::uint32_t from = element(__builtin_ctz(mask)), to = element(31 - __builtin_clz(mask));
  if (to < from) return 0;
  first = base + 4ull * from;
  return 4;
}

}  // namespace warpsim::traces::kernels
