// The caches' numbers that bandwidth.csv and offset.csv measure, the way hopper-h100.ini's comments
// derive its own:
// - l1.caches_global, l1.stores_allocate: at offset 1 two neighbouring warps share a sector.
//   readOffset's loads hit it in L1 (13.39% of its sectors on Hopper) only if L1 caches global
//   loads; writeOffset's loads are aligned and read once, so any L1 hit of it is a store hitting a
//   line a neighbour's store allocated (SPEC S3.4 says a store never allocates; Volta on do);
// (Not l2.bytes_per_cycle_per_slice: in the model it is the slices' peak, which hopper-h100 takes
// from ncu's L2-to-crossbar counters (h100-measured/stride_full.csv); bandwidth.csv's L2-resident
// sweep achieves ~70% of it on the H100, and taken as the peak it slowed the model's L2-bound
// launches: derived on the H100's own calibration, h100-apps' time MAPE rose from 4.5% to 12.7%.
// It is inherited; calibrate would need ncu's lts2xbar counters to derive it.)
// - dirty_lines_per_set: at the end of a copy far larger than L2, what was stored but never
//   reached DRAM is what the L2 still holds dirty; over its sets, the dirty lines a set keeps
//   (l2_cache.hpp);
// - fill_partial_writes: whether a store that covers part of a sector makes L2 fetch the sector
//   (DRAM ECC): writeOffset at offset 1 splits one sector in four between two warps, and would
//   read about 1/8 more from DRAM than at offset 0 if it did.
#include <algorithm>
#include <cmath>

#include "analysis/derive/derive_steps.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

// A fill of every split sector adds an eighth to writeOffset's reads at offset 1 (two arrays
// read, one written with a quarter of its sectors split); offsets 0 and 1 read within 0.02% of
// each other on both H100 calibrations and the H200, where no fills happen.
constexpr double kFillReadExcess = 0.05;

// L1 hit rates, in points, that show reuse: a kernel without any has 0.
constexpr double kL1ReusePoints = 1.0;

std::string mb(double bytes) { return fixed(bytes / 1e6, 1) + " MB"; }

// The rows of offset.csv at its largest n, which must overflow L2 several times.
std::vector<std::size_t> largest_rows(const CsvTable& offset, std::uint64_t l2_bytes) {
  int lg = 0;
  for (const auto& r : offset.rows) lg = std::max(lg, std::stoi(split_params(r.at("params")).at("lg")));
  if ((std::uint64_t{4} << lg) < 4 * l2_bytes)
    throw sim::InputError(offset.path, "the largest rows (n = 2^" + std::to_string(lg) +
                                           ") do not overflow L2 four times; the write-back numbers need them");
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < offset.rows.size(); ++i)
    if (split_params(offset.rows[i].at("params")).at("lg") == std::to_string(lg)) rows.push_back(i);
  return rows;
}

// The row of `kernel` at `offset` among the smallest n of offset.csv.
std::size_t smallest_row(const CsvTable& t, const std::string& kernel, const std::string& offset) {
  int lg = 99;
  for (const auto& r : t.rows) lg = std::min(lg, std::stoi(split_params(r.at("params")).at("lg")));
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    auto p = split_params(t.rows[i].at("params"));
    if (t.rows[i].at("kernel") == kernel && p["lg"] == std::to_string(lg) && p["offset"] == offset) return i;
  }
  throw sim::InputError(t.path, "no " + kernel + " row at offset " + offset + " and the smallest n");
}

void l1_policies(const CalibrationData& d, Derivation& out) {
  const CsvTable& t = d.offset;
  const std::string column = "l1tex__t_sector_hit_rate.pct";
  const std::size_t loads = smallest_row(t, "readOffset", "1"), stores = smallest_row(t, "writeOffset", "1");
  const double load_hits = t.number(loads, column), store_hits = t.number(stores, column);
  out.set("l1.caches_global", load_hits > kL1ReusePoints ? "true" : "false",
          cite(t, loads) + ": readOffset at offset 1 hits L1 on " + fixed(load_hits, 2) +
              "% of its sectors (the sector two warps share; 0 if L1 did not cache global loads)");
  out.set("l1.stores_allocate", store_hits > kL1ReusePoints ? "true" : "false",
          cite(t, stores) + ": writeOffset at offset 1 hits L1 on " + fixed(store_hits, 2) +
              "% of its sectors (its loads are aligned and read once: any hit is a store hitting a line a "
              "neighbouring warp's store allocated)");
}

void dirty_lines(const CalibrationData& d, const models::Arch& arch, const std::vector<std::size_t>& largest,
                 Derivation& out) {
  const CsvTable& t = d.offset;
  std::vector<std::size_t> rows;  // stores of whole sectors only: every byte stored is a byte to write back
  for (std::size_t i : largest)
    if (t.number(i, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct") == 100 &&
        t.number(i, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") > 0)
      rows.push_back(i);
  if (rows.empty())
    throw sim::InputError(t.path, "no row at the largest n stores whole sectors (store efficiency 100%)");
  double stored = 0, written = 0;
  for (std::size_t i : rows) {
    stored += t.number(i, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") * arch.l2.sector_bytes / double(rows.size());
    written += t.number(i, "dram__bytes_write.sum") / double(rows.size());
  }
  const double sets = double(arch.l2.size_bytes) / (double(arch.l2.line_bytes) * arch.l2.ways);
  const double per_set = (stored - written) / arch.l2.line_bytes / sets;
  out.set("l2.dirty_lines_per_set", std::max<std::int64_t>(0, std::llround(per_set)),
          cite(t, rows) + " (the " + std::to_string(rows.size()) +
              " rows at the largest n that store whole sectors): of " + mb(stored) + " stored, " + mb(stored - written) +
              " never reached DRAM (mean) = " + fixed(per_set, 2) + " lines a set (" + fixed(sets, 0) + " sets of " +
              std::to_string(arch.l2.ways) + " " + std::to_string(arch.l2.line_bytes) + "-byte lines)");
}

void partial_fills(const CalibrationData& d, const std::vector<std::size_t>& largest, Derivation& out) {
  const CsvTable& t = d.offset;
  auto find = [&](const std::string& offset) {
    for (std::size_t i : largest)
      if (t.rows[i].at("kernel") == "writeOffset" && split_params(t.rows[i].at("params"))["offset"] == offset) return i;
    throw sim::InputError(t.path, "no writeOffset row at offset " + offset + " at the largest n");
  };
  const std::size_t aligned = find("0"), split = find("1");
  const double excess = t.number(split, "dram__bytes_read.sum") / t.number(aligned, "dram__bytes_read.sum") - 1;
  const bool fills = excess > kFillReadExcess;
  out.set("l2.fill_partial_writes", fills ? "true" : "false",
          cite(t, split) + ": writeOffset at offset 1 reads " + mb(t.number(split, "dram__bytes_read.sum")) +
              " from DRAM, " + fixed(excess * 100, 2) + "% more than at offset 0 (" + cite(t, aligned) + "): " +
              (fills ? "above" : "below") + " the " + fixed(kFillReadExcess * 100, 0) +
              "% that fills of its split sectors would add");
}

}  // namespace

void derive_memory(const CalibrationData& d, const models::Arch& arch, const std::string&, Derivation& out) {
  l1_policies(d, out);
  const auto largest = largest_rows(d.offset, arch.l2.size_bytes);
  dirty_lines(d, arch, largest, out);
  partial_fills(d, largest, out);
}

}  // namespace warpsim::analysis
