// The tables of a GPU measured with tools/gpu-probes/calibrate. Each states the tolerance each row
// is held to and why; the numbers themselves are read from the GPU's files at run time. The
// tolerances were set on the H100 (its own repeats, issue 5) and hold for every GPU: they say how
// far two measurements of one kernel on one GPU may differ, not how good the model is.
#include "analysis/validation/gpu_tables.hpp"

#include "analysis/validation/exact_counters.hpp"
#include "analysis/validation/reference_data.hpp"
#include "models/arch.hpp"

namespace warpsim::analysis {
namespace {

using models::RunRequest;
using Row = std::map<std::string, std::string>;

RunRequest request(const std::string& arch, const std::string& kernel, std::vector<std::string> params) {
  RunRequest r;
  r.arch = arch;
  r.kernel = kernel;
  r.kernel_params = std::move(params);
  return r;
}

ValidationRow row(std::string quantity, double reference, double simulated, Tolerance tolerance) {
  return compare_row(std::move(quantity), reference, simulated, tolerance);
}

CsvTable data_file(const MeasuredGpu& gpu, const char* name) {
  return read_csv(validation_data_dir() / gpu.folder / name);
}

// ---- counters: offset.csv, stride.csv and more_counters -----------------------------------------
// Exact where the hardware is exact: instructions, requests and sectors are counts of the
// coalescer (S3), not estimates. Times within ±10% (issue 5 asks it of readOffset at n = 2^26; the
// n = 2^20 rows, 3-7 us, are where the preset's kernel_start_ns is measured: one constant for all).
// Achieved occupancy on the n = 2^26 rows, where the GPU is full for hundreds of waves, and on
// fmaChain's, where the warps a scheduler holds (1 to 16) decide the time.

// Achieved occupancy against ncu's sm__warps_active.avg.pct_of_peak_sustained_active, within 3
// points: the spread of ncu's own repeats of one kernel (H100 offset.csv lg=26: 70.6 to 73.1%). Not
// a count, but what decides the time of a latency-bound kernel (Little's law), so it is reported
// next to the times it explains.
ValidationRow occupancy_row(const std::string& label, const CsvTable& t, std::size_t i, const models::RunResult& r) {
  return row(label + " achieved_occupancy", t.number(i, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100,
             RunCache::metric(r, "achieved_occupancy"), Tolerance::absolute(0.03));
}

// L1 sector hit rate against ncu's l1tex__t_sector_hit_rate.pct, within 1.5 points. A count where
// one warp's accesses decide it (readOffset's shared fifth sector hits whichever neighbour comes
// second: 13.39% at every misaligned offset and both sizes); where it depends on which of two
// neighbouring warps' stores reaches L1 first (writeOffset, l1.stores_allocate) ncu's own readings
// of one access pattern spread by 1.1 points (H100 offset 8: 13.45% at n = 2^20, 12.36% at 2^26).
ValidationRow l1_hit_row(const std::string& label, const CsvTable& t, std::size_t i, const models::RunResult& r) {
  return row(label + " l1_hit_rate", t.number(i, "l1tex__t_sector_hit_rate.pct"), RunCache::metric(r, "l1_hit_rate"),
             Tolerance::absolute(1.5));
}

// A launch of fmaChain (h100-measured/warp_lifetime.csv: case fmaChain_ilp1 or fmaChain_ilp4,
// params block=..;grid=..;iters=..), not of the offset and stride kernels.
bool is_fma_row(const Row& row) { return split_params(row.at("params")).count("iters") != 0; }

// The rows a counters file gives the table: every row of offset.csv, stride.csv and sparse.csv;
// of warp_lifetime.csv the fmaChain launches, not its warm-ups (warmup_...) or fmaNoStore, which
// the kernel library does not have (analysis/validation/warp_lifetime.py reads those).
bool table_row(const Row& row) {
  const std::string& name = row.at("case");
  return !is_fma_row(row) || name.rfind("fmaChain_ilp", 0) == 0;
}

// --quick keeps the short launches: n = 2^20 and fmaChain (the largest simulates in ~1 s).
bool wanted(const Row& row, const ValidationOptions& o) {
  if (!table_row(row)) return false;
  return !o.quick || is_fma_row(row) || split_params(row.at("params")).at("lg") == "20";
}

}  // namespace

std::string table_arch(const std::string& own, const ValidationOptions& options) {
  return options.arch.empty() ? own : options.arch;
}

RunRequest calibration_request(const std::string& arch, const Row& row) {
  auto p = split_params(row.at("params"));
  if (is_fma_row(row)) {
    const std::string& name = row.at("case");  // fmaChain_ilp1, fmaChain_ilp4
    return request(arch, "fmaChain",
                   {"ilp=" + name.substr(name.rfind("ilp") + 3), "block=" + p.at("block"), "grid=" + p.at("grid"),
                    "iters=" + p.at("iters")});
  }
  std::vector<std::string> params{"n=" + std::to_string(1LL << std::stoi(p.at("lg"))), "block=" + p.at("bs")};
  if (p.count("offset")) params.push_back("offset=" + p.at("offset"));
  if (p.count("stride")) params.push_back("stride=" + p.at("stride"));
  return request(arch, row.at("kernel"), params);
}

std::vector<ValidationRow> calibration_rows(const CsvTable& t, std::size_t i, const models::RunResult& result) {
  const auto& r = t.rows[i];
  const std::string label = (is_fma_row(r) ? r.at("case") : r.at("kernel")) + " " + r.at("params");
  std::vector<ValidationRow> rows;
  for (const auto& c : kExactCounters)
    rows.push_back(row(label + " " + c.metric, t.number(i, c.ncu), RunCache::metric(result, c.metric), Tolerance::exact()));
  rows.push_back(l1_hit_row(label, t, i, result));
  rows.push_back(row(label + " time_ns", t.number(i, "gpu__time_duration.sum"), result.time_ms * 1e6,
                     Tolerance::relative(0.10)));
  if (is_fma_row(r) || split_params(r.at("params")).at("lg") == "26") rows.push_back(occupancy_row(label, t, i, result));
  return rows;
}

TableBuilder counters_table(const MeasuredGpu& gpu) {
  auto files = [gpu] {
    std::vector<CsvTable> all{data_file(gpu, "offset.csv"), data_file(gpu, "stride.csv")};
    for (const auto& more : gpu.more_counters) all.push_back(read_csv(validation_data_dir() / more));
    for (const auto& t : all)  // what every row is read by (calibration_request, calibration_rows)
      for (const char* column : {"case", "params", "kernel"}) t.require_column(column);
    return all;
  };
  const std::string name = gpu.gpu + "-counters";
  return {name,
          [files, gpu](RunCache& cache, const ValidationOptions& o) {
            for (const auto& t : files())
              for (const auto& r : t.rows)
                if (wanted(r, o)) cache.want(calibration_request(table_arch(gpu.preset, o), r));
          },
          [files, gpu, name](RunCache& cache, const ValidationOptions& o) {
            std::string sources = gpu.origin + "/offset.csv, stride.csv";
            for (const auto& more : gpu.more_counters) sources += ", " + more;
            ValidationTable table{name, sources + " (Nsight Compute, " + gpu.board + ")", {}};
            for (const auto& t : files())
              for (std::size_t i = 0; i < t.rows.size(); ++i) {
                const auto& r = t.rows[i];
                if (!wanted(r, o)) continue;
                const auto& result = cache.get(calibration_request(table_arch(gpu.preset, o), r));
                for (auto& v : calibration_rows(t, i, result)) table.rows.push_back(std::move(v));
              }
            return table;
          }};
}

// ---- L2 persistence: persist_10MB.csv -----------------------------------------------------------
// Each time within ±10% (issue 5), and the measured order: hitRatio 0 slower than no window,
// time falling as hitRatio rises. DRAM bytes read and written within ±5%: they follow from which
// lines stay in L2 and when dirty lines are written back (l2_cache.hpp); 5% leaves room for
// the state of L2 when ncu starts measuring (on the H100 the no-window row reads only 4.2 MB of the
// 10 MB hot region, hitRatio 1.0 reads 9.7 MB: part of it was still cached from the previous launch).
RunRequest persist_request(const std::string& arch, const Row& row) {
  auto p = split_params(row.at("params"));
  std::vector<std::string> params{"persist_bytes=" + std::to_string(std::stoll(p.at("persistMB")) << 20)};
  if (p.at("window") == "1") {
    params.push_back("window_bytes=" + std::to_string(std::stoll(p.at("persistMB")) << 20));
    params.push_back("hit_ratio=" + p.at("hitRatio"));
    params.push_back("hit_prop=persisting");
    params.push_back("miss_prop=streaming");
  }
  return request(arch, "persistKernel", params);
}

TableBuilder persistence_table(const MeasuredGpu& gpu) {
  auto file = [gpu] { return data_file(gpu, "persist_10MB.csv"); };
  const std::string name = gpu.gpu + "-persistence";
  return {name,
          [file, gpu](RunCache& cache, const ValidationOptions& o) {
            if (o.quick) return;
            for (const auto& r : file().rows) cache.want(persist_request(table_arch(gpu.preset, o), r));
          },
          [file, gpu, name](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{name, gpu.origin + "/persist_10MB.csv (persistKernel, 10 MB hot)", {}};
            if (o.quick) return table;
            CsvTable t = file();
            std::vector<double> times;
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
              const auto& result = cache.get(persist_request(table_arch(gpu.preset, o), t.rows[i]));
              const std::string label = "persistKernel " + t.rows[i].at("params");
              double simulated = result.time_ms * 1e6;
              times.push_back(simulated);
              table.rows.push_back(row(label + " time_ns", t.number(i, "gpu__time_duration.sum"), simulated,
                                       Tolerance::relative(0.10)));
              table.rows.push_back(row(label + " dram_read_bytes", t.number(i, "dram__bytes_read.sum"),
                                       RunCache::metric(result, "dram_read_bytes"), Tolerance::relative(0.05)));
              table.rows.push_back(row(label + " dram_write_bytes", t.number(i, "dram__bytes_write.sum"),
                                       RunCache::metric(result, "dram_write_bytes"), Tolerance::relative(0.05)));
              table.rows.push_back(l1_hit_row(label, t, i, result));
              table.rows.push_back(occupancy_row(label, t, i, result));
            }
            // Row 0: no window; rows 1..5: hitRatio 0, .25, .5, .75, 1.
            if (times.size() >= 6) {
              table.rows.push_back(row("order: hitRatio 0 time >= no-window time", times[0], times[1], Tolerance::at_least()));
              for (std::size_t k = 2; k <= 5; ++k)
                table.rows.push_back(row("order: time(hitRatio " + split_params(t.rows[k].at("params")).at("hitRatio") +
                                             ") <= previous",
                                         times[k - 1], times[k], Tolerance::at_most()));
            }
            return table;
          }};
}

// ---- dependent-load latency: latency.csv --------------------------------------------------------
// Cycles per dependent load within ±5% (issue 5). The simulated figure is the slope between two
// chase lengths, which cancels launch and warm-up costs as the measured loop does.
RunRequest chase_request(const std::string& arch, const std::string& kb, int steps) {
  // As kernels.cu's main(): working sets up to 16 MB are warmed by one walk of the whole cycle
  // (one load per 128-byte line) before the timed chase; the 1 GB set is chased cold.
  const long long bytes = std::stoll(kb) * 1024;
  const long long warmup = bytes <= (16LL << 20) ? bytes / 128 : 0;
  return request(arch, "chase",
                 {"working_set_bytes=" + std::to_string(bytes), "steps=" + std::to_string(steps),
                  "warmup_steps=" + std::to_string(warmup)});
}

TableBuilder latency_table(const MeasuredGpu& gpu) {
  auto file = [gpu] { return data_file(gpu, "latency.csv"); };
  constexpr int kShort = 2000, kLong = 4000;
  const std::string name = gpu.gpu + "-latency";
  return {name,
          [=](RunCache& cache, const ValidationOptions& o) {
            for (const auto& r : file().rows) {
              cache.want(chase_request(table_arch(gpu.preset, o), r.at("working_set_kb"), kShort));
              cache.want(chase_request(table_arch(gpu.preset, o), r.at("working_set_kb"), kLong));
            }
          },
          [=](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{name, gpu.origin + "/latency.csv (pointer chase, one thread)", {}};
            CsvTable t = file();
            const std::string arch = table_arch(gpu.preset, o);
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
              const std::string kb = t.rows[i].at("working_set_kb");
              double slope = (double(cache.get(chase_request(arch, kb, kLong)).cycles) -
                              double(cache.get(chase_request(arch, kb, kShort)).cycles)) /
                             (kLong - kShort);
              table.rows.push_back(row("chase " + kb + " KB (" + t.rows[i].at("level") + ") cycles per load",
                                       t.number(i, "cycles_per_dependent_load"), slope, Tolerance::relative(0.05)));
            }
            return table;
          }};
}

// ---- block dispatch: dispatch.csv ---------------------------------------------------------------
// Event time of emptyKernel launches (launch overhead + GPU time) within ±25%: the GigaThread
// engine's rate is one preset number, the launch overhead another; this table checks that the
// two together follow the measured growth from 132 to 132,000 blocks.
RunRequest empty_request(const std::string& arch, const Row& row) {
  auto p = split_params(row.at("params"));
  return request(arch, "emptyKernel", {"block=" + p.at("bs"), "grid=" + p.at("blocks")});
}

TableBuilder dispatch_table(const MeasuredGpu& gpu) {
  auto file = [gpu] { return data_file(gpu, "dispatch.csv"); };
  const std::string name = gpu.gpu + "-dispatch";
  return {name,
          [=](RunCache& cache, const ValidationOptions& o) {
            for (const auto& r : file().rows) cache.want(empty_request(table_arch(gpu.preset, o), r));
          },
          [=](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{name, gpu.origin + "/dispatch.csv (emptyKernel, event timing)", {}};
            CsvTable t = file();
            const std::string arch = table_arch(gpu.preset, o);
            const double launch_ms = double(models::load_arch(arch).dispatch.launch_overhead_ns) * 1e-6;
            for (std::size_t i = 0; i < t.rows.size(); ++i)
              table.rows.push_back(row("emptyKernel " + t.rows[i].at("params") + " ms", t.number(i, "event_median_ms"),
                                       launch_ms + cache.get(empty_request(arch, t.rows[i])).time_ms,
                                       Tolerance::relative(0.25)));
            return table;
          }};
}

}  // namespace warpsim::analysis
