// Every lane of every global access of the array kernels addresses the element kernels.cu gives
// it, whether the stream wrote the lane's address or marked the access lane_linear (only the
// first active lane's address written, the rest following from the width). Edge cases: partial
// last warps, lanes that leave at the bounds check, offsets, a persistent region whose
// tid % size wraps inside a warp, strides that are not consecutive elements.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "traces/kernels/library.hpp"

namespace {

using namespace warpsim::traces;
using warpsim::traces::kernels::make_kernel;

// The element (a 4-byte index into its buffer) thread `i` accesses in the kernel's `j`-th global
// access, in listing order.
using ElementOf = std::function<std::uint64_t(std::uint32_t i, int j)>;

struct Walk {
  std::uint64_t accesses = 0, linear = 0;
};

// Walks every warp of every block on ISA `sm`. Each access's buffer base is taken from the
// first lane seen (base = address - 4 * element); every other lane must agree with it.
Walk check_addresses(const std::string& kernel, const std::vector<std::string>& params, int sm,
                     const ElementOf& element) {
  auto k = make_kernel(kernel, params, {sm});
  const std::uint32_t block = k.source->info().block.x;
  std::map<int, std::uint64_t> base;
  Walk walk;
  Instruction inst;
  for (std::uint64_t b = 0; b < k.source->info().grid.count(); ++b) {
    auto warps = k.source->open_block(b);
    for (std::uint32_t w = 0; w < warps.size(); ++w) {
      int j = 0;
      while (warps[w]->next(inst)) {
        if (inst.space != MemSpace::Global || inst.active_mask == 0) continue;
        ++walk.accesses;
        walk.linear += inst.lane_linear;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (!(inst.active_mask >> lane & 1u)) continue;
          const auto i = static_cast<std::uint32_t>(b * block + w * kWarpSize + static_cast<std::uint32_t>(lane));
          const std::uint64_t offset = 4 * element(i, j);
          if (!base.count(j)) base[j] = inst.address(lane) - offset;
          if (inst.address(lane) != base[j] + offset) {
            INFO(kernel << " sm_" << sm << " block " << b << " warp " << w << " access " << j << " lane " << lane);
            REQUIRE(inst.address(lane) == base[j] + offset);
          }
        }
        ++j;
      }
    }
  }
  return walk;
}

}  // namespace

TEST_CASE("array kernels address every lane as kernels.cu does, lane_linear or not", "[kernels]") {
  for (int sm : {20, 35, 90}) {
    for (std::uint32_t offset : {0u, 11u, 32u}) {
      // n = 1000: the last block's last warp is partial, and lanes with k >= n leave.
      const std::vector<std::string> p = {"n=1000", "block=128", "offset=" + std::to_string(offset)};
      // readOffset(NC): A[k], B[k], C[i]; writeOffset: A[i], B[i], C[k]; k = i + offset.
      auto read = [offset](std::uint32_t i, int j) { return j < 2 ? std::uint64_t{i + offset} : i; };
      auto write = [offset](std::uint32_t i, int j) { return j < 2 ? std::uint64_t{i} : i + offset; };
      for (const char* kernel : {"readOffset", "readOffsetNC"}) {
        const Walk w = check_addresses(kernel, p, sm, read);
        CHECK(w.linear == w.accesses);  // every lane reads consecutive elements
      }
      CHECK(check_addresses("writeOffset", p, sm, write).linear > 0);
    }
    // readOffsetUnroll<4>: i = blockIdx.x * blockDim.x * 4 + threadIdx.x; the listing's accesses
    // come in its own order, so the element is checked per access against the lane's thread only
    // through its base: u * blockDim.x is part of what each access's base absorbs.
    {
      const std::uint32_t block = 64, unroll = 4, offset = 5;
      auto element = [&](std::uint32_t i, int) {
        const std::uint32_t b = i / block, t = i % block;
        return std::uint64_t{b * block * unroll + t + offset};
      };
      const Walk w = check_addresses("readOffsetUnroll", {"n=4096", "block=64", "unroll=4", "offset=5"}, sm, element);
      CHECK(w.linear > 0);
    }
    // stridedRead: in[i * stride], out[i]; only stride 1 reads consecutive elements.
    for (std::uint32_t stride : {1u, 3u}) {
      auto element = [stride](std::uint32_t i, int j) { return j == 0 ? std::uint64_t{i} * stride : i; };
      const Walk w = check_addresses("stridedRead", {"n=3000", "block=64", "stride=" + std::to_string(stride)}, sm,
                                     element);
      CHECK(w.linear == (stride == 1 ? w.accesses : w.accesses / 2));
    }
    // persistKernel: persistent[tid % freqSize] twice (load, store), streaming[tid % dataSize]
    // twice. freqSize = 40 wraps inside most warps: those accesses must list their lanes.
    {
      const std::uint32_t freq = 40, data = 4096;
      auto element = [&](std::uint32_t i, int j) { return std::uint64_t{j < 2 ? i % freq : i % data}; };
      const Walk w = check_addresses("persistKernel", {"persist_bytes=160", "data_bytes=16384", "block=64"}, sm,
                                     element);
      CHECK(w.linear > 0);
      CHECK(w.linear < w.accesses);
    }
  }
}
