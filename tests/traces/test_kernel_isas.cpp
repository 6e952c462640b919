// Fermi (sm_20) and Kepler (sm_35) listings are plausible, not measured (README.md), but the
// work must be the same: every kernel touches exactly the same addresses, lane by lane, with
// the same operations, on sm_20, sm_35 and sm_90; only the instructions around them differ.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "traces/kernels/library.hpp"

namespace {

using namespace warpsim::traces;

using Access = std::tuple<std::uint64_t, int, int, int>;  // address, space, op, width

std::vector<Access> accesses(const std::string& kernel, const std::vector<std::string>& params, int sm) {
  auto k = kernels::make_kernel(kernel, params, {sm});
  std::vector<Access> out;
  Instruction inst;
  for (std::uint64_t b = 0; b < k.source->info().grid.count(); ++b)
    for (auto& w : k.source->open_block(b))
      while (w->next(inst)) {
        if (!inst.is_memory() || inst.space == MemSpace::Constant) continue;
        for (int lane = 0; lane < kWarpSize; ++lane)
          if (inst.active_mask >> lane & 1u)
            out.emplace_back(inst.address(lane), int(inst.space), int(inst.mem_op), int(inst.width));
      }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("sm_20 and sm_35 listings do the same memory work as sm_90", "[kernels]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"readOffset", {"n=3000", "block=96", "offset=11"}},
      {"readOffsetNC", {"n=3000", "block=80", "offset=33"}},
      {"writeOffset", {"n=3000", "block=128", "offset=5"}},
      {"readOffsetUnroll", {"n=5000", "block=64", "unroll=1", "offset=3"}},
      {"readOffsetUnroll", {"n=5000", "block=64", "unroll=2", "offset=3"}},
      {"readOffsetUnroll", {"n=5000", "block=64", "unroll=4", "offset=3"}},
      {"readOffsetUnroll", {"n=5000", "block=96", "unroll=8", "offset=130"}},
      {"stridedRead", {"n=4096", "block=64", "stride=3"}},
      {"testInnerStruct", {"n=1000", "block=128"}},
      {"testInnerArray", {"n=1000", "block=100"}},
      {"transposeNaive", {"width=64"}},
      {"transposeShared", {"width=64", "pad=0"}},
      {"transposeShared", {"width=64", "pad=1"}},
      {"fmaChain", {"iters=37", "ilp=4", "grid=2", "block=64"}},
      {"fmaChain", {"iters=9", "ilp=1", "grid=2", "block=40"}},
      {"chase", {"steps=1001", "working_set_bytes=65536"}},
      {"persistKernel", {"data_bytes=131072", "persist_bytes=4000", "block=256"}},
      {"emptyKernel", {"block=1024", "grid=3"}},
      {"persistLoop", {"grid=2", "iters=7", "persist_bytes=40000"}},
      {"persistLoop", {"grid=1", "iters=2", "persist_bytes=400"}},
  };
  for (const auto& [kernel, params] : cases) {
    auto reference = accesses(kernel, params, 90);
    for (int sm : {20, 35}) {
      INFO(kernel << " sm_" << sm);
      auto got = accesses(kernel, params, sm);
      CHECK(got.size() == reference.size());
      CHECK(got == reference);
    }
  }
}

TEST_CASE("Kepler and Fermi __ldcg loads are LD.E.CG (CacheOp::Global), plain loads Default", "[kernels]") {
  for (int sm : {20, 35}) {
    for (const char* kernel : {"readOffset", "readOffsetNC"}) {
      auto k = kernels::make_kernel(kernel, {"n=1024"}, {sm});
      Instruction inst;
      auto warps = k.source->open_block(0);
      int loads = 0;
      while (warps[0]->next(inst)) {
        CHECK(inst.space != MemSpace::Constant);  // sm_20/35 read parameters as operands, no LDC
        if (inst.space == MemSpace::Global && inst.mem_op == MemOp::Load) {
          ++loads;
          CHECK(inst.cache_op == (std::string(kernel) == "readOffsetNC" ? CacheOp::Global : CacheOp::Default));
        }
      }
      CHECK(loads == 2);
    }
  }
}
