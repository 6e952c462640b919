// Where a GPU's per-SM state lies (warp_slots.hpp, gpu_memory_system.hpp): every SM's warp slots
// in one arena of transparent huge pages, and the L1s in another. A short run touches a few warp
// slots and L1 sets of every SM, which on 4 KB pages cost a page fault each (vectoradd's trace:
// ~1,000 for the slots, ~500 for the L1s, several microseconds apiece on a virtual machine).
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/core/gpu.hpp"
#include "models/memory/memory_system.hpp"
#include "models/memory/sector_cache.hpp"
#include "sim/zero_pages.hpp"
#include "sim/stats.hpp"
#include "tests/models/mock_workload.hpp"
#include "tests/sim/smaps.hpp"

using namespace warpsim;

TEST_CASE("a GPU's warp slots and L1s are mapped as huge pages", "[zero_pages]") {
  if (!test::host_has_huge_pages()) return;  // nothing to advise: the host has no huge pages
  const models::Arch arch = models::load_arch("hopper-h100");
  sim::StatsRegistry stats;
  const std::uint64_t before_gpu = test::huge_advised_bytes();
  test::FixedLatencyMemory fixed(100);
  {
    models::Gpu gpu(arch, fixed, stats);
    // The one huge mapping a GPU makes: its SMs' warp slots.
    CHECK(test::huge_advised_bytes() - before_gpu >= arch.gpu.sms * models::Sm::warp_slots_arena_bytes(arch.sm));
  }
  CHECK(test::huge_advised_bytes() == before_gpu);  // given back with the GPU

  // The memory system's L1s, one arena for the SMs' L1s and read-only caches. (The L2 here is
  // made small enough for ordinary pages, so that the L1s' arena is the one huge mapping.)
  const models::Arch small_l2 = models::load_arch("hopper-h100", {"l2.size_bytes=4194304", "l2.persist_max_bytes=1048576"});
  const models::MemorySystemSpecs specs = models::memory_system_specs(small_l2);
  const std::uint64_t l1s =
      std::uint64_t{small_l2.gpu.sms} *
      models::memory::SectorCache::arena_bytes({specs.l1.size_bytes, specs.l1.line_bytes, specs.l1.sector_bytes, specs.l1.ways});
  REQUIRE(sim::worth_huge_pages(l1s));
  sim::StatsRegistry memory_stats;
  const std::uint64_t before_memory = test::huge_advised_bytes();
  auto memory = models::make_memory_system(specs, memory_stats, 1);
  CHECK(test::huge_advised_bytes() - before_memory >= l1s);
  // A GPU of 14 SMs touches fewer 4 KB pages of its warp slots than one huge page would clear.
  const models::Arch kepler = models::load_arch("kepler-k20x");
  const std::uint64_t before_kepler = test::huge_advised_bytes();
  sim::StatsRegistry kepler_stats;
  models::Gpu small(kepler, fixed, kepler_stats);
  CHECK(test::huge_advised_bytes() == before_kepler);
}
