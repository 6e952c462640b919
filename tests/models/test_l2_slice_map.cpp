// Which L2 slice serves a line. With l2.slice_pieces a slice takes two 256-byte pieces 512 bytes
// apart of each 4 KB block, lines {b, b+1, b+4, b+5}: the H200's groups (h200/l2_slice_pairs.csv.xz,
// tools/gpu-probes/l2_slice_map.cu; tests/analysis/test_slice_groups.py checks the measurement).
// Off, consecutive lines go to consecutive slices.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "models/arch.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;
using namespace warpsim::models::memory;

namespace {

// Lines a and b (< 32) of one 4 KB block are one slice's in the H200's map.
bool same_piece_group(std::uint64_t a, std::uint64_t b) { return (a & ~std::uint64_t{5}) == (b & ~std::uint64_t{5}); }

}  // namespace

TEST_CASE("l2.slice_pieces: a slice takes lines {b, b+1, b+4, b+5} of each 4 KB block, eight slices a block",
          "[memory][l2]") {
  for (const char* preset : {"hopper-h100", "hopper-h200"}) {
    Arch arch = load_arch(preset);
    arch.l2.slice_pieces = false;
    sim::StatsRegistry stats, stats_pieces;
    BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
    const L2Cache consecutive(arch.l2, arch.gpu.core_clock_khz, dram, stats);
    arch.l2.slice_pieces = true;
    const L2Cache pieces(arch.l2, arch.gpu.core_clock_khz, dram, stats_pieces);
    for (std::uint64_t block = 0; block < 1000; ++block) {
      std::set<std::uint32_t> slices, before;
      for (std::uint64_t a = 0; a < 32; ++a) {
        const std::uint64_t line = block * 32 + a;
        slices.insert(pieces.slice_of(line));
        before.insert(consecutive.slice_of(line));
        for (std::uint64_t b = a + 1; b < 32; ++b)
          CHECK((pieces.slice_of(line) == pieces.slice_of(block * 32 + b)) == same_piece_group(a, b));
      }
      CHECK(slices.size() == 8);
      CHECK(before.size() > 8);  // off: a slice a line (two where a group of l2.slices lines starts)
    }
    // The two 4 KB blocks of an aligned 8 KB are homed in different halves (l2_partition_lines).
    const std::uint32_t per_half = arch.l2.slices / arch.l2.partitions;
    REQUIRE(arch.l2.partitions == 2);
    for (std::uint64_t pair = 0; pair < 1000; ++pair)
      CHECK(pieces.slice_of(pair * 64) / per_half != pieces.slice_of(pair * 64 + 32) / per_half);
    // A stream still spreads evenly over the slices.
    std::vector<std::uint64_t> count(arch.l2.slices, 0);
    const std::uint64_t lines = std::uint64_t{arch.l2.slices} * 4 * 2000;
    for (std::uint64_t line = 0; line < lines; ++line) ++count[pieces.slice_of(line)];
    const auto [low, high] = std::minmax_element(count.begin(), count.end());
    CHECK(double(*high - *low) < 0.05 * double(lines) / arch.l2.slices);
  }
}
