// Every lane of every global access of the array kernels addresses the element kernels.cu gives
// it, whether the stream wrote the lane's address or marked the access lane_linear (only the
// first active lane's address written, the rest following from the width). Edge cases: partial
// last warps, lanes that leave at the bounds check, offsets, a persistent region whose
// tid % size wraps inside a warp, strides that are not consecutive elements. Each access's
// buffer is where calibration/kernels.cu's main() allocates it (DeviceHeap), so an address off by
// the same amount in every lane fails as well.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "traces/kernels/device_heap.hpp"
#include "traces/kernels/library.hpp"

namespace {

using namespace warpsim::traces;
using warpsim::traces::kernels::make_kernel;

// The element (a 4-byte index into its buffer) thread `i` accesses in the kernel's `j`-th global
// access, in listing order.
using ElementOf = std::function<std::uint64_t(std::uint32_t i, int j)>;

struct Walk {
  std::uint64_t accesses = 0, linear = 0;
  std::set<std::uint64_t> bases;  // of every access, address - 4 * element
};

// The bases of buffers of `bytes` each, allocated in order as kernels.cu's main() does.
std::set<std::uint64_t> buffers(const std::vector<std::uint64_t>& bytes) {
  warpsim::traces::kernels::DeviceHeap heap;
  std::set<std::uint64_t> out;
  for (const std::uint64_t b : bytes) out.insert(heap.allocate(b));
  return out;
}

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
  for (const auto& [j, b] : base) walk.bases.insert(b);
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
      const std::set<std::uint64_t> abc = buffers({4000, 4000, 4000});
      for (const char* kernel : {"readOffset", "readOffsetNC"}) {
        const Walk w = check_addresses(kernel, p, sm, read);
        CHECK(w.linear == w.accesses);  // every lane reads consecutive elements
        CHECK(w.bases == abc);
      }
      const Walk w = check_addresses("writeOffset", p, sm, write);
      CHECK(w.linear > 0);
      CHECK(w.bases == abc);
    }
    // readOffsetUnroll<4>: i = blockIdx.x * blockDim.x * 4 + threadIdx.x; access u of array X
    // reads element i + u * blockDim.x (+ offset but for C). The listing orders the accesses its
    // own way per ISA, so the element below leaves out u * blockDim.x and C's missing offset, and
    // each access's base holds them: buffer + 4 * (u * blockDim.x - (X == C ? offset : 0)).
    {
      const std::uint32_t block = 64, unroll = 4, offset = 5;
      auto element = [&](std::uint32_t i, int) {
        const std::uint32_t b = i / block, t = i % block;
        return std::uint64_t{b * block * unroll + t + offset};
      };
      const Walk w = check_addresses("readOffsetUnroll", {"n=4096", "block=64", "unroll=4", "offset=5"}, sm, element);
      CHECK(w.linear > 0);
      std::set<std::uint64_t> expected;
      int array = 0;
      for (const std::uint64_t buffer : buffers({4 * 4096, 4 * 4096, 4 * 4096})) {  // A, B, C
        for (std::uint32_t u = 0; u < unroll; ++u) expected.insert(buffer + 4 * (u * block) - (array == 2 ? 4 * offset : 0));
        ++array;
      }
      CHECK(w.bases == expected);
    }
    // stridedRead: in[i * stride], out[i]; only stride 1 reads consecutive elements.
    for (std::uint32_t stride : {1u, 3u}) {
      auto element = [stride](std::uint32_t i, int j) { return j == 0 ? std::uint64_t{i} * stride : i; };
      const Walk w = check_addresses("stridedRead", {"n=3000", "block=64", "stride=" + std::to_string(stride)}, sm,
                                     element);
      CHECK(w.linear == (stride == 1 ? w.accesses : w.accesses / 2));
      // in, main()'s unused B, out: every stridedRead buffer is n floats.
      std::set<std::uint64_t> in_out = buffers({4 * 3000, 4 * 3000, 4 * 3000});
      in_out.erase(std::next(in_out.begin()));
      CHECK(w.bases == in_out);
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
      CHECK(w.bases == buffers({64u << 20, 16384}));  // the persistent region takes at least 64 MB
    }
  }
}
