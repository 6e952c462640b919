// The kernel library's structure: warp formation (S1.2, S1.3), the SASS walk (units, registers,
// cache operators, guarded exits, loops), parameter errors, and the `warpsim kernels` listing.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/errors.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/small_kernels.hpp"
#include "traces/kernels/library.hpp"
#include "traces/kernels/sass_program.hpp"

namespace {

using namespace warpsim::traces;
using warpsim::traces::kernels::make_kernel;

std::vector<Instruction> drain(WarpStream& warp) {
  std::vector<Instruction> out;
  Instruction inst;
  while (warp.next(inst)) out.push_back(inst);
  return out;
}

std::uint64_t count_all(KernelSource& source) {
  std::uint64_t n = 0;
  Instruction inst;
  for (std::uint64_t b = 0; b < source.info().grid.count(); ++b)
    for (auto& w : source.open_block(b))
      while (w->next(inst)) ++n;
  return n;
}

std::string param(const kernels::KernelInstance& k, const std::string& key) {
  for (const auto& [k2, v] : k.params)
    if (k2 == key) return v;
  return "?";
}

}  // namespace

TEST_CASE("An 80-thread block is 3 warps, the third with 16 live lanes (S1.3)", "[kernels]") {
  auto k = make_kernel("readOffset", {"n=80", "block=80"}, {90});
  REQUIRE(k.source->info().grid.x == 1);
  auto warps = k.source->open_block(0);
  REQUIRE(warps.size() == 3);
  auto third = drain(*warps[2]);
  REQUIRE(third.size() == 21);
  for (const auto& inst : third)
    if (inst.control != Control::Exit && inst.unit != Unit::Control) CHECK((inst.active_mask & ~0xffffu) == 0);
  CHECK(third.front().active_mask == 0xffffu);
  CHECK(drain(*warps[0]).front().active_mask == kFullMask);
}

TEST_CASE("2-D blocks form warps by linear thread index (S1.2): transpose 32x8", "[kernels]") {
  auto k = make_kernel("transposeNaive", {"width=256"}, {90});
  const KernelInfo& info = k.source->info();
  CHECK(info.block.x == 32);
  CHECK(info.block.y == 8);
  CHECK(info.grid.x == 8);
  CHECK(info.grid.y == 8);
  // Block 9 = blockIdx (1, 1); warp 3 = threadIdx.y 3, threadIdx.x = lane.
  auto warps = k.source->open_block(9);
  REQUIRE(warps.size() == 8);
  auto insts = drain(*warps[3]);
  std::vector<Instruction> global;
  for (const auto& i : insts)
    if (i.space == MemSpace::Global) global.push_back(i);
  REQUIRE(global.size() == 8);
  const Instruction& first_load = global[0];
  CHECK(first_load.mem_op == MemOp::Load);
  std::uint64_t in_base = first_load.address(0) - 4 * ((32 + 3) * 256 + 32);
  for (int lane = 0; lane < 32; ++lane) CHECK(first_load.address(lane) == in_base + 4 * ((32 + 3) * 256 + 32 + lane));
  // The first store writes out[x * w + y]: a column, 1 KB apart between lanes.
  const Instruction& first_store = global[1];
  CHECK(first_store.mem_op == MemOp::Store);
  CHECK(first_store.address(1) - first_store.address(0) == 4 * 256);
}

TEST_CASE("readOffset on sm_90 walks the cuobjdump listing: units, registers, exit", "[kernels]") {
  auto k = make_kernel("readOffset", {"n=1024", "block=512", "offset=16"}, {90});
  CHECK(k.source->info().registers_per_thread == 10);
  auto warps = k.source->open_block(1);
  auto last = drain(*warps[15]);  // i = 992..1023, k = 1008..1039: lanes 16..31 leave at @P0 EXIT
  REQUIRE(last.size() == 21);
  CHECK(last[0].unit == Unit::LdSt);  // LDC R1, c[0x0][0x28]
  CHECK(last[0].space == MemSpace::Constant);
  CHECK(last[0].addr[0] == 0x28);
  // A kernel parameter: every lane reads it, and the stream writes it once (uniform_address).
  CHECK(last[0].uniform_address);
  for (int lane = 0; lane < 32; ++lane) CHECK(last[0].address(lane) == 0x28);
  for (const auto& i : last)
    if (i.space == MemSpace::Global) CHECK_FALSE(i.uniform_address);
  CHECK(last[8].control == Control::Exit);  // @P0 EXIT
  CHECK(last[8].active_mask == 0xffff0000u);
  CHECK(last[8].src[0] == predicate_reg(0));
  CHECK(last[7].dst[0] == predicate_reg(0));  // ISETP.GE.U32.AND P0
  const Instruction& ldg = last[13];          // LDG.E R3, desc[UR4][R2.64]
  CHECK(ldg.pc == 0xd0);
  CHECK(ldg.mem_op == MemOp::Load);
  CHECK(ldg.cache_op == CacheOp::Default);
  CHECK(ldg.width == 4);
  CHECK(ldg.active_mask == 0x0000ffffu);
  CHECK(ldg.dst[0] == 3);
  CHECK(ldg.src_count == 2);
  CHECK(last[18].unit == Unit::Fp32);  // FADD
  CHECK(last[20].control == Control::Exit);
  // A warp whose lanes all leave executes nothing after the EXIT.
  auto k2 = make_kernel("readOffset", {"n=1024", "block=512", "offset=32"}, {90});
  CHECK(drain(*k2.source->open_block(1)[15]).size() == 9);
}

TEST_CASE("Every listing line's head runs on all lanes, and exactly the constant loads are uniform", "[kernels]") {
  // Streams copy a line's Instruction head whole and then set its active mask; a head that
  // started with fewer lanes or marked a global access uniform would reach the memory system so.
  for (const auto* programs : {&kernels::sass_programs_sm20(), &kernels::sass_programs_sm35(), &kernels::sass_programs_sm90()})
    for (const kernels::SassProgram& program : *programs)
      for (const kernels::SassOp& op : program.ops) {
        INFO(program.function << ": " << op.text);
        CHECK(op.head.active_mask == kFullMask);
        CHECK(op.head.uniform_address == (op.head.space == MemSpace::Constant));
      }
}

TEST_CASE("readOffsetNC loads bypass L1 (LDG.E.STRONG.GPU -> CacheOp::Global)", "[kernels]") {
  auto k = make_kernel("readOffsetNC", {"n=4096"}, {90});
  int loads = 0;
  for (const auto& i : drain(*k.source->open_block(0)[0]))
    if (i.space == MemSpace::Global && i.mem_op == MemOp::Load) {
      CHECK(i.cache_op == CacheOp::Global);
      ++loads;
    }
  CHECK(loads == 2);
}

TEST_CASE("Derived and resolved parameters", "[kernels]") {
  auto k = make_kernel("readOffsetUnroll", {"n=1048576", "block=256", "unroll=8"}, {90});
  CHECK(k.source->info().grid.x == 512);
  CHECK(param(k, "grid") == "512");
  CHECK(param(k, "unroll") == "8");
  CHECK(param(k, "window_bytes") == "0");
  auto p = make_kernel("persistKernel", {"window_bytes=1048576", "hit_ratio=0.5"}, {90});
  CHECK(p.source->info().grid.x == 65536);
  CHECK(p.source->info().block.x == 1024);
  CHECK(p.source->info().window.bytes == 1048576);
  CHECK(p.source->info().window.hit_ratio == 0.5);
  CHECK(p.source->info().window.base % (2 << 20) == 0);
  CHECK(p.source->info().set_aside_bytes == KernelInfo::kLargestSetAside);  // kernels.cu sets it
  CHECK(k.source->info().set_aside_bytes == KernelInfo::kNoSetAside);      // CUDA's default
  CHECK(make_kernel("readOffset", {"set_aside_bytes=4096"}, {90}).source->info().set_aside_bytes == 4096);
  auto t = make_kernel("transposeShared", {"pad=1"}, {90});
  CHECK(t.source->info().shared_bytes_per_block == 32 * 33 * 4);
}

TEST_CASE("Loop kernels follow the listing's trip counts", "[kernels]") {
  // fmaChain: exactly iters x ILP chained FFMAs (FFMA Rx, Rx, ...: destination among the sources)
  // per thread, whatever the count's remainder, on every ISA. Outside the loop a few Fp32
  // instructions read their destination too (the sum's FADDs, a setup FFMA on sm_90): the count
  // at iters = 0 is that baseline.
  for (int sm : {20, 35, 90}) {
    for (int chains : {1, 4}) {
      int baseline = -1;
      for (int iters : {0, 1, 2, 3, 4, 5, 8, 12, 13, 16, 17, 20, 28, 31, 100, 4096}) {
        auto k = make_kernel("fmaChain", {"iters=" + std::to_string(iters), "ilp=" + std::to_string(chains),
                                          "grid=1", "block=32"}, {sm});
        int chained = 0;
        for (const auto& i : drain(*k.source->open_block(0)[0])) {
          if (i.unit != Unit::Fp32 || i.dst_count != 1) continue;
          for (int s = 0; s < i.src_count; ++s)
            if (i.src[s] == i.dst[0]) ++chained;
        }
        if (iters == 0) baseline = chained;
        INFO("sm_" << sm << " iters " << iters << " ilp " << chains);
        CHECK(chained - baseline == iters * chains);
      }
    }
  }
  // chase: exactly `steps` dependent loads, each at the line the previous one pointed to.
  for (int steps : {0, 1, 5, 16, 29, 20000}) {
    auto k = make_kernel("chase", {"steps=" + std::to_string(steps), "working_set_bytes=16384"}, {90});
    auto insts = drain(*k.source->open_block(0)[0]);
    int loads = 0, stores = 0;
    for (const auto& i : insts) {
      if (i.space != MemSpace::Global) continue;
      CHECK(i.active_mask == 1u);
      (i.mem_op == MemOp::Load ? loads : stores)++;
    }
    CHECK(loads == steps);
    CHECK(stores == 2);
  }
}

TEST_CASE("emptyKernel: only thread 1023 gets past the guarded EXIT", "[kernels]") {
  auto k = make_kernel("emptyKernel", {"block=1024", "grid=2"}, {90});
  CHECK(count_all(*k.source) == 2 * (31 * 4 + 9));
  auto small = make_kernel("emptyKernel", {"block=256", "grid=3"}, {90});
  CHECK(count_all(*small.source) == 3 * 8 * 4);
}

TEST_CASE("Every kernel builds with its defaults on sm_20, sm_35 and sm_90", "[kernels]") {
  for (const auto& def : kernels::library()) {
    for (int sm : {20, 35, 90}) {
      INFO(def.name << " sm_" << sm);
      auto k = make_kernel(def.name, warpsim::test::small_kernel_params(def.name), {sm});
      CHECK(k.source->info().name == def.name);
      CHECK(k.params.size() == def.params.size());
      CHECK(count_all(*k.source) > 0);
    }
  }
}

TEST_CASE("Bad kernel names and parameters are InputErrors naming the key", "[kernels]") {
  using warpsim::sim::InputError;
  CHECK_THROWS_WITH(make_kernel("nope", {}, {90}), Catch::Contains("readOffset") && Catch::Contains("persistKernel"));
  CHECK_THROWS_AS(make_kernel("nope", {}, {90}), InputError);
  CHECK_THROWS_WITH(make_kernel("readOffset", {"bogus=1"}, {90}), Catch::Contains("-p bogus"));
  CHECK_THROWS_WITH(make_kernel("readOffset", {"block=0"}, {90}), Catch::Contains("-p block"));
  CHECK_THROWS_WITH(make_kernel("readOffset", {"block=1025"}, {90}), Catch::Contains("-p block"));
  CHECK_THROWS_WITH(make_kernel("readOffset", {"n=abc"}, {90}), Catch::Contains("-p n"));
  CHECK_THROWS_WITH(make_kernel("readOffset", {"n=4096", "grid=2"}, {90}), Catch::Contains("-p grid"));
  CHECK_THROWS_WITH(make_kernel("readOffsetUnroll", {"unroll=3"}, {90}), Catch::Contains("-p unroll"));
  CHECK_THROWS_WITH(make_kernel("fmaChain", {"ilp=2"}, {90}), Catch::Contains("-p ilp"));
  CHECK_THROWS_WITH(make_kernel("transposeShared", {"width=100"}, {90}), Catch::Contains("-p width"));
  CHECK_THROWS_WITH(make_kernel("transposeShared", {"pad=2"}, {90}), Catch::Contains("-p pad"));
  CHECK_THROWS_WITH(make_kernel("chase", {"working_set_bytes=100"}, {90}), Catch::Contains("-p working_set_bytes"));
  CHECK_THROWS_WITH(make_kernel("persistKernel", {"hit_ratio=1.5"}, {90}), Catch::Contains("-p hit_ratio"));
  CHECK_THROWS_WITH(make_kernel("persistKernel", {"hit_prop=sticky"}, {90}), Catch::Contains("-p hit_prop"));
  CHECK_THROWS_WITH(make_kernel("persistKernel", {"persist_bytes=10"}, {90}), Catch::Contains("-p persist_bytes"));
  CHECK_THROWS_WITH(make_kernel("readOffset", {"noequals"}, {90}), Catch::Contains("-p"));
  CHECK_THROWS_AS(make_kernel("readOffset", {}, {70}), InputError);
}

TEST_CASE("warpsim kernels lists every kernel and its parameters", "[kernels]") {
  auto r = warpsim::test::run_warpsim("kernels");
  REQUIRE(r.exit_code == 0);
  for (const auto& def : kernels::library()) {
    CHECK(r.out.find("\n" + def.name + ": ") != std::string::npos);
    for (const auto& p : def.params) CHECK(r.out.find(p.key) != std::string::npos);
  }
  auto j = warpsim::test::run_warpsim("kernels --json");
  REQUIRE(j.exit_code == 0);
  CHECK(j.out.find("\"name\": \"chase\"") != std::string::npos);
  CHECK(j.out.find("\"key\": \"window_bytes\"") != std::string::npos);
  auto h = warpsim::test::run_warpsim("kernels --help");
  CHECK(h.exit_code == 0);
  CHECK(h.out.find("usage: warpsim kernels") != std::string::npos);
}

TEST_CASE("transposeShared's tile reads hit one bank 32 times without padding, 32 banks with pad=1 (S3.10)",
          "[kernels]") {
  for (int pad : {0, 1}) {
    auto k = make_kernel("transposeShared", {"width=64", "pad=" + std::to_string(pad)}, {90});
    auto insts = drain(*k.source->open_block(0)[2]);
    int shared_loads = 0;
    for (const auto& i : insts) {
      if (i.space != MemSpace::Shared || i.mem_op != MemOp::Load) continue;
      ++shared_loads;
      std::uint32_t banks = 0;
      for (int lane = 0; lane < 32; ++lane) banks |= 1u << (i.address(lane) / 4 % 32);
      CHECK(__builtin_popcount(banks) == (pad ? 32 : 1));
    }
    CHECK(shared_loads == 4);
  }
}
