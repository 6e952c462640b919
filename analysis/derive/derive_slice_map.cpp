// l2.slice_pieces, from l2_slice_pairs.csv: which lines one L2 slice serves. One thread read two
// lines in turn, 2,048 times each; where one slice serves both, ncu's lts__t_requests_srcunit_tex.max
// counts all the launch's requests on it, else about half. The model has two maps (l2_cache.hpp):
// consecutive lines to consecutive slices (no two lines of a 4 KB block share one), and
// l2.slice_pieces, where the lines {b, b+1, b+4, b+5} of each block do (eight slices a block) and
// the blocks take their slices in an even rotation. Each is asked where it puts every measured
// pair's lines (offsets from 0, as the probe's buffer's); the value is the map that places every
// pair as measured, and where neither does, the consecutive one, the source saying how many pairs
// each places otherwise.
#include <algorithm>
#include <map>

#include "analysis/derive/derive_steps.hpp"
#include "models/memory/banked_dram.hpp"
#include "models/memory/l2_cache.hpp"
#include "sim/errors.hpp"
#include "sim/stats.hpp"

namespace warpsim::analysis {
namespace {

constexpr std::uint64_t kBlockBytes = 4096;

// A pair's verdict: one slice took (nearly) every request, or two took about half each.
bool one_slice(const CsvTable& t, std::size_t row) {
  const double share = t.number(row, "requests_max") / t.number(row, "requests_sum");
  if (share > 0.75) return true;
  if (share < 0.6) return false;
  throw sim::InputError(t.where(row), "requests_max is " + fixed(100 * share, 1) +
                                          "% of requests_sum: neither one slice's (all) nor two slices' (half)");
}

// The pairs a map places otherwise than measured, and of them those of lines in different blocks.
struct Misplaced {
  int pairs = 0, across_blocks = 0;
};

Misplaced misplaced(const CsvTable& t, const std::vector<bool>& one, models::Arch arch, bool pieces) {
  arch.l2.slice_pieces = pieces;
  sim::StatsRegistry stats;
  models::memory::BankedDram dram(arch.dram, arch.gpu.core_clock_khz, 1);
  const models::memory::L2Cache l2(arch.l2, arch.gpu.core_clock_khz, dram, stats);
  Misplaced m;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto a = std::uint64_t(t.number(i, "offset_a")), b = std::uint64_t(t.number(i, "offset_b"));
    if ((l2.slice_of(a / arch.l2.line_bytes) == l2.slice_of(b / arch.l2.line_bytes)) == one[i]) continue;
    ++m.pairs;
    m.across_blocks += a / kBlockBytes != b / kBlockBytes;
  }
  return m;
}

std::string placed(const Misplaced& m) {
  return std::to_string(m.pairs) + " (" + std::to_string(m.across_blocks) + " of lines in different 4 KB blocks)";
}

}  // namespace

void derive_slice_map(const CalibrationData& d, const models::Arch& arch, Derivation& out) {
  if (!d.slice_pairs) return;
  const CsvTable& t = *d.slice_pairs;
  const std::uint64_t line_bytes = arch.l2.line_bytes;
  std::vector<bool> one(t.rows.size());
  std::map<std::uint64_t, int> per_block_pairs;  // pairs of lines within each 4 KB block
  int shared = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto a = std::uint64_t(t.number(i, "offset_a")), b = std::uint64_t(t.number(i, "offset_b"));
    for (const auto& [offset, column] : {std::pair{a, "offset_a"}, std::pair{b, "offset_b"}})
      if (offset % line_bytes != 0)
        throw sim::InputError(t.where(i), std::string(column) + " " + std::to_string(offset) + " is not the start of a " +
                                              std::to_string(line_bytes) + "-byte L2 line");
    one[i] = one_slice(t, i);
    shared += one[i];
    if (a / kBlockBytes == b / kBlockBytes) ++per_block_pairs[a / kBlockBytes];
  }
  const int lines = int(kBlockBytes / line_bytes), all_pairs = lines * (lines - 1) / 2;
  if (std::none_of(per_block_pairs.begin(), per_block_pairs.end(), [&](const auto& b) { return b.second == all_pairs; }))
    throw sim::InputError(t.path, "no 4 KB block with all " + std::to_string(all_pairs) + " pairs of its " +
                                      std::to_string(lines) + " lines: the slice map needs a whole block");

  const Misplaced pieces = misplaced(t, one, arch, true), consecutive = misplaced(t, one, arch, false);
  const std::string measured =
      std::filesystem::path(t.path).filename().string() + ":" + std::to_string(t.lines.front()) + "-" +
      std::to_string(t.lines.back()) + ": of " + std::to_string(t.rows.size()) + " pairs of lines, " +
      std::to_string(shared) + " served by one slice (lts__t_requests_srcunit_tex.max over 75% of the launch's " +
      "requests); placed otherwise by the groups {b, b+1, b+4, b+5} of l2.slice_pieces " + placed(pieces) +
      ", by consecutive lines to consecutive slices " + placed(consecutive);
  if (pieces.pairs == 0)
    out.set("l2.slice_pieces", "true", measured + ": the groups");
  else if (consecutive.pairs == 0)
    out.set("l2.slice_pieces", "false", measured + ": consecutive lines to consecutive slices");
  else
    out.set("l2.slice_pieces", "false", measured + ": neither map the model has; consecutive lines to consecutive slices");
}

}  // namespace warpsim::analysis
