// What a persisting set-aside costs writes that use no window, as hopper-h100.ini's comments derive
// it by hand from setaside_stores.csv (tools/gpu-probes/setaside_stores.cu):
// - l2.ways: the driver grants set-asides in whole ways; its smallest grant is one way of the L2;
// - l2.set_aside_write_back_cycles: with w ways set aside a 256 MB write stream (32 warps on
//   every SM) is bound by DRAM while the set-aside costs little, then by the L2 slices: each line
//   written back holds its slice for the cycles the stream's time gives a line (slices x clock x
//   time / lines), less those its store takes on the slice's port anyway (line / port bytes a
//   cycle). Where the stream is as fast as with no set-aside, the cost is hidden behind DRAM's
//   and the entry is 0 (l2_cache.hpp).
#include <cmath>
#include <map>

#include "analysis/derive/derive_steps.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

// setaside_stores.cu's stream: 256 MB of whole 128-byte lines, 32 warps on every SM.
constexpr double kStreamBytes = 256.0 * 1024 * 1024;
const std::string kStreamWarps = "32";

// A stream time within this share of the no-set-aside one shows no cost: on the H100 and the H200
// the in-order and scattered streams of one granted size differ by up to 3.7% (the H200 with 9
// ways set aside), and with 1 to 3 ways the streams lie within 1.8% of none (h100-measured,
// calibrate-2026-11-27 and h200); with 4 ways the first cost shows, 5.3-5.5% (H100) and 8.3%
// (H200) above none.
constexpr double kNoCostShare = 0.03;

struct StreamTimes {
  std::vector<double> ns;
  std::vector<std::size_t> stream_rows, grant_rows;
  double mean() const {
    double sum = 0;
    for (double v : ns) sum += v;
    return sum / double(ns.size());
  }
};

}  // namespace

void derive_set_aside(const CalibrationData& d, const models::Arch& arch, const std::string&, Derivation& out) {
  if (!d.set_aside) return;  // no persisting L2: nothing is set aside
  const CsvTable &streams = d.set_aside->streams, &grants = d.set_aside->grants;

  // The grant step: the smallest set-aside granted, one way.
  double step_kb = 0;
  std::size_t step_row = 0;
  for (std::size_t i = 0; i < grants.rows.size(); ++i) {
    const double kb = grants.number(i, "grantedKB");
    if (kb > 0 && (step_kb == 0 || kb < step_kb)) step_kb = kb, step_row = i;
  }
  if (step_kb == 0)
    throw sim::InputError(grants.path + ":" + std::to_string(grants.header_line),
                          "no request was granted a set-aside (every grantedKB is 0)");
  const double l2_kb = double(arch.l2.size_bytes) / 1024, ways = l2_kb / step_kb;
  if (ways != std::floor(ways))
    throw sim::InputError(grants.where(step_row), "the smallest grant, " + fixed(step_kb, 0) + " KB, is not a whole " +
                                                      "share of the L2's " + fixed(l2_kb, 0) + " KB");
  out.set("l2.ways", std::int64_t(ways),
          cite(grants, step_row) + ": the driver grants set-asides in steps of " + fixed(step_kb, 0) + " KB, 1/" +
              fixed(ways, 0) + " of the " + fixed(l2_kb, 0) + " KB L2 (a way of each set)");

  // The 32-warp stream's times at each granted size, in ways: the granted rows (in order and
  // scattered) and the stream rows of the same launch.
  std::map<std::int64_t, StreamTimes> by_ways;
  for (std::size_t i = 0; i < grants.rows.size(); ++i)
    if (grants.number(i, "kernel_ns") > 0) {
      auto& t = by_ways[std::llround(grants.number(i, "grantedKB") / step_kb)];
      t.ns.push_back(grants.number(i, "kernel_ns"));
      t.grant_rows.push_back(i);
    }
  for (std::size_t i = 0; i < streams.rows.size(); ++i)
    if (streams.rows[i].at("kind") == "stream" && streams.rows[i].at("warps_per_sm") == kStreamWarps) {
      const double w = streams.number(i, "setAsideKB") / step_kb;
      if (w != std::floor(w))
        throw sim::InputError(streams.where(i), "setAsideKB " + fixed(streams.number(i, "setAsideKB"), 0) +
                                                    " is not a whole number of " + fixed(step_kb, 0) + " KB ways");
      auto& t = by_ways[std::llround(w)];
      t.ns.push_back(streams.number(i, "kernel_ns"));
      t.stream_rows.push_back(i);
    }

  const auto most = std::int64_t(std::floor(double(arch.l2.persist_max_bytes) / 1024 / step_kb));
  const double lines = kStreamBytes / arch.l2.line_bytes;
  const double own = double(arch.l2.line_bytes) / arch.l2.bytes_per_cycle_per_slice;
  const double clock_hz = double(arch.gpu.core_clock_khz) * 1e3;
  if (!by_ways.count(0))
    throw sim::InputError(grants.path, "no 32-warp stream without a set-aside (granted 0 KB), the time the costs compare with");
  const double none = by_ways[0].mean();
  std::string entries, times;
  std::vector<std::size_t> stream_rows, grant_rows;
  for (std::int64_t w = 0; w <= most; ++w) {
    if (!by_ways.count(w))
      throw sim::InputError(grants.path, "no 32-warp stream with " + std::to_string(w) + " ways (" +
                                             fixed(double(w) * step_kb, 0) + " KB) set aside");
    const StreamTimes& t = by_ways[w];
    const double ns = t.mean();
    const double cost = ns > none * (1 + kNoCostShare) ? arch.l2.slices * clock_hz * ns * 1e-9 / lines - own : 0;
    if (w > 0) {
      entries += ' ';
      times += ", ";
    }
    entries += cost > 0 ? fixed(cost, 1) : "0";
    times += fixed(ns / 1e3, 1) + (w > 0 ? "" : " us") + " with " + std::to_string(w);
    stream_rows.insert(stream_rows.end(), t.stream_rows.begin(), t.stream_rows.end());
    grant_rows.insert(grant_rows.end(), t.grant_rows.begin(), t.grant_rows.end());
  }
  std::string rows = grant_rows.empty() ? "" : cite(grants, grant_rows);
  if (!stream_rows.empty()) rows += (rows.empty() ? "" : " and ") + cite(streams, stream_rows);
  out.set("l2.set_aside_write_back_cycles", entries,
          rows + ": a 256 MB write stream, 32 warps an SM (mean of the rows of each granted size), takes " + times +
              " of " + fixed(ways, 0) + " ways set aside; within " + fixed(kNoCostShare * 100, 0) +
              "% of none the cost is hidden behind DRAM (0), else each entry = " + std::to_string(arch.l2.slices) +
              " slices x " + std::to_string(arch.l2.line_bytes) + " B x " + fixed(clock_hz / 1e9, 2) +
              " GHz x time / 256 MiB (the slice cycles a line takes) less " + std::to_string(arch.l2.line_bytes) +
              " / " + std::to_string(arch.l2.bytes_per_cycle_per_slice) + " (its store's own)");
}

}  // namespace warpsim::analysis
