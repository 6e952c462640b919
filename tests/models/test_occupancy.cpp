// Occupancy per preset: resident blocks per SM and the limiting resource (S1.1), with CUDA's
// allocation granularities. Each row's reasoning is written beside it.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "models/occupancy.hpp"
#include "sim/errors.hpp"

using namespace warpsim::models;

namespace {
struct Row {
  const char* arch;
  std::uint32_t threads, regs, shared;
  std::uint32_t blocks, warps;
  OccupancyLimit limit;
  const char* why;
};
}  // namespace

TEST_CASE("occupancy table", "[models][occupancy]") {
  using L = OccupancyLimit;
  const Row rows[] = {
      // Fermi cc 2.0: 1536 threads, 48 warps, 8 blocks, 32K registers (unit 64, 2-warp granularity).
      {"fermi-m2070", 128, 20, 0, 8, 32, L::Blocks, "seeds/004: 8 blocks x 4 warps = 32 warps"},
      {"fermi-m2070", 512, 20, 0, 3, 48, L::Threads, "1536 / 512 = 3"},
      {"fermi-m2070", 1024, 20, 0, 1, 32, L::Threads, "1536 / 1024 = 1"},
      {"fermi-m2070", 256, 63, 0, 2, 16, L::Registers, "63*32 -> 2048 per warp, 8 warps = 16384, 32768 / 16384 = 2"},
      {"fermi-m2070", 96, 16, 12288, 4, 12, L::SharedMemory, "49152 / 12288 = 4"},
      {"fermi-m2070", 80, 16, 0, 8, 24, L::Blocks, "S1.3: 80 threads are 3 warps"},
      // Kepler cc 3.5: 2048 threads, 64 warps, 16 blocks, 64K registers (unit 256, per warp).
      {"kepler-k20x", 128, 32, 0, 16, 64, L::Blocks, "16 blocks fill 64 warps exactly; the block limit is checked first"},
      {"kepler-k20x", 64, 32, 0, 16, 32, L::Blocks, "16 blocks x 2 warps"},
      {"kepler-k20x", 256, 64, 0, 4, 32, L::Registers, "64*32 = 2048 per warp, 8 warps = 16384, 65536 / 16384 = 4"},
      {"kepler-k20x", 192, 37, 0, 8, 48, L::Registers, "37*32 = 1184 -> 1280 per warp, x6 = 7680, 65536 / 7680 = 8"},
      {"kepler-k20x", 1024, 32, 0, 2, 64, L::Threads, "2048 / 1024 = 2"},
      // Hopper cc 9.0: 2048 threads, 64 warps, 32 blocks, 64K registers, 228 KB shared, 1 KB reserved per block.
      {"hopper-h100", 768, 32, 0, 2, 48, L::Threads, "2048 / 768 = 2"},
      {"hopper-h100", 32, 32, 0, 32, 32, L::Blocks, "32 blocks of one warp; the 1 KB reservation allows 228"},
      {"hopper-h100", 128, 32, 49152, 4, 16, L::SharedMemory, "(48 KB + 1 KB) per block: 233472 / 50176 = 4"},
      {"hopper-h100", 256, 255, 0, 1, 8, L::Registers, "255*32 -> 8192 per warp, x8 = 65536: one block"},
      {"hopper-h100", 1024, 32, 0, 2, 64, L::Threads, "2048 / 1024 = 2"},
  };
  for (const auto& r : rows) {
    INFO(r.arch << " threads=" << r.threads << " regs=" << r.regs << " shared=" << r.shared << ": " << r.why);
    Arch a = load_arch(r.arch);
    Occupancy o = compute_occupancy(a.sm, BlockResources{r.threads, r.regs, r.shared}, a.preset);
    CHECK(o.blocks_per_sm == r.blocks);
    CHECK(o.warps_per_sm == r.warps);
    CHECK(limit_name(o.limit) == limit_name(r.limit));
  }
}

TEST_CASE("blocks that cannot run at all are input errors naming the resource", "[models][occupancy]") {
  Arch fermi = load_arch("fermi-m2070");
  Arch hopper = load_arch("hopper-h100");
  REQUIRE_THROWS_WITH(compute_occupancy(hopper.sm, {1025, 32, 0}, hopper.preset),
                      Catch::Contains("1025 threads per block exceeds hopper-h100's limit of 1024"));
  REQUIRE_THROWS_WITH(compute_occupancy(fermi.sm, {128, 64, 0}, fermi.preset),
                      Catch::Contains("64 registers per thread exceeds"));
  REQUIRE_THROWS_WITH(compute_occupancy(hopper.sm, {128, 32, 232449}, hopper.preset),
                      Catch::Contains("shared bytes per block exceeds"));
  REQUIRE_THROWS_AS(compute_occupancy(hopper.sm, {0, 32, 0}, hopper.preset), warpsim::sim::InputError);
}

TEST_CASE("achieved fraction is resident warps over the SM maximum", "[models][occupancy]") {
  Occupancy o = compute_occupancy(load_arch("fermi-m2070").sm, {128, 20, 0}, "fermi-m2070");
  REQUIRE(o.fraction() == Approx(32.0 / 48.0));
}
