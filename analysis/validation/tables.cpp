// The built-in validation tables. Each states where its reference numbers come from and the
// tolerance each row is held to; the numbers themselves are read from data/ at run time.
#include <cmath>

#include "analysis/validation/apps_table.hpp"
#include "analysis/validation/calibration_requests.hpp"
#include "analysis/validation/exact_counters.hpp"
#include "analysis/validation/limiter_table.hpp"
#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"
#include "models/arch.hpp"

namespace warpsim::analysis {
namespace {

using models::RunRequest;

ValidationRow row(std::string quantity, double reference, double simulated, Tolerance tolerance) {
  return compare_row(std::move(quantity), reference, simulated, tolerance);
}

// ---- H100 counters: offset.csv and stride.csv -------------------------------------------------
// Exact where the hardware is exact: instructions, requests and sectors are counts of the
// coalescer (S3), not estimates. Times within ±10% (issue 5 asks it of readOffset at n = 2^26; the
// n = 2^20 rows, 3-7 us, are where the preset's kernel_start_ns is measured: one constant for all).
// Achieved occupancy on the n = 2^26 rows, where the GPU is full for hundreds of waves.

// Achieved occupancy against ncu's sm__warps_active.avg.pct_of_peak_sustained_active, within 3
// points: the spread of ncu's own repeats of one kernel (offset.csv lg=26: 70.6 to 73.1%). Not a
// count, but what decides the time of a latency-bound kernel (Little's law), so it is reported
// next to the times it explains.
ValidationRow occupancy_row(const std::string& label, const CsvTable& t, std::size_t i, const models::RunResult& r) {
  return row(label + " achieved_occupancy", t.number(i, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100,
             RunCache::metric(r, "achieved_occupancy"), Tolerance::absolute(0.03));
}

// L1 sector hit rate against ncu's l1tex__t_sector_hit_rate.pct, within 1.5 points. A count where
// one warp's accesses decide it (readOffset's shared fifth sector hits whichever neighbour comes
// second: 13.39% at every misaligned offset and both sizes); where it depends on which of two
// neighbouring warps' stores reaches L1 first (writeOffset, l1.stores_allocate) ncu's own readings
// of one access pattern spread by 1.1 points (offset 8: 13.45% at n = 2^20, 12.36% at 2^26).
ValidationRow l1_hit_row(const std::string& label, const CsvTable& t, std::size_t i, const models::RunResult& r) {
  return row(label + " l1_hit_rate", t.number(i, "l1tex__t_sector_hit_rate.pct"), RunCache::metric(r, "l1_hit_rate"),
             Tolerance::absolute(1.5));
}

bool wanted(const std::map<std::string, std::string>& row, const ValidationOptions& o) {
  return !o.quick || split_params(row.at("params")).at("lg") == "20";
}

TableBuilder h100_counters() {
  auto files = [] {
    return std::vector<CsvTable>{read_csv(validation_data_dir() / "offset.csv"),
                                 read_csv(validation_data_dir() / "stride.csv")};
  };
  return {"h100-counters",
          [files](RunCache& cache, const ValidationOptions& o) {
            for (const auto& t : files())
              for (const auto& r : t.rows)
                if (wanted(r, o)) cache.want(calibration_request(r));
          },
          [files](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{"h100-counters",
                                  "calibration/h100/offset.csv, stride.csv (Nsight Compute, H100 80GB HBM3)", {}};
            for (const auto& t : files())
              for (std::size_t i = 0; i < t.rows.size(); ++i) {
                const auto& r = t.rows[i];
                if (!wanted(r, o)) continue;
                const auto& result = cache.get(calibration_request(r));
                std::string label = r.at("kernel") + " " + r.at("params");
                for (const auto& c : kExactCounters)
                  table.rows.push_back(row(label + " " + c.metric, t.number(i, c.ncu),
                                           RunCache::metric(result, c.metric), Tolerance::exact()));
                table.rows.push_back(l1_hit_row(label, t, i, result));
                table.rows.push_back(row(label + " time_ns", t.number(i, "gpu__time_duration.sum"),
                                         result.time_ms * 1e6, Tolerance::relative(0.10)));
                if (split_params(r.at("params")).at("lg") == "26")
                  table.rows.push_back(occupancy_row(label, t, i, result));
              }
            return table;
          }};
}

// ---- H100 L2 persistence: persist_10MB.csv ----------------------------------------------------
// Each time within ±10% (issue 5), and the measured order: hitRatio 0 slower than no window,
// time falling as hitRatio rises. DRAM bytes read and written within ±5%: they follow from which
// lines stay in L2 and when dirty lines are written back (l2_cache.hpp); 5% leaves room for
// the state of L2 when ncu starts measuring (the no-window row reads only 4.2 MB of the 10 MB hot
// region, hitRatio 1.0 reads 9.7 MB: part of it was still cached from the previous launch).
TableBuilder h100_persistence() {
  auto file = [] { return read_csv(validation_data_dir() / "persist_10MB.csv"); };
  return {"h100-persistence",
          [file](RunCache& cache, const ValidationOptions& o) {
            if (o.quick) return;
            for (const auto& r : file().rows) cache.want(persist_request(r));
          },
          [file](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{"h100-persistence", "calibration/h100/persist_10MB.csv (persistKernel, 10 MB hot)", {}};
            if (o.quick) return table;
            CsvTable t = file();
            std::vector<double> times;
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
              const auto& result = cache.get(persist_request(t.rows[i]));
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

// ---- H100 dependent-load latency: latency.csv -------------------------------------------------
// Cycles per dependent load within ±5% (issue 5). The simulated figure is the slope between two
// chase lengths, which cancels launch and warm-up costs as the measured loop does.
TableBuilder h100_latency() {
  auto file = [] { return read_csv(validation_data_dir() / "latency.csv"); };
  // As kernels.cu's main(): working sets up to 16 MB are warmed by one walk of the whole cycle
  // (one load per 128-byte line) before the timed chase; the 1 GB set is chased cold.
  auto chase = [](const std::string& kb, int steps) {
    const long long bytes = std::stoll(kb) * 1024;
    const long long warmup = bytes <= (16LL << 20) ? bytes / 128 : 0;
    return library_request("hopper-h100", "chase",
                   {"working_set_bytes=" + std::to_string(bytes), "steps=" + std::to_string(steps),
                    "warmup_steps=" + std::to_string(warmup)});
  };
  constexpr int kShort = 2000, kLong = 4000;
  return {"h100-latency",
          [=](RunCache& cache, const ValidationOptions&) {
            for (const auto& r : file().rows) {
              cache.want(chase(r.at("working_set_kb"), kShort));
              cache.want(chase(r.at("working_set_kb"), kLong));
            }
          },
          [=](RunCache& cache, const ValidationOptions&) {
            ValidationTable table{"h100-latency", "calibration/h100/latency.csv (pointer chase, one thread)", {}};
            CsvTable t = file();
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
              const std::string kb = t.rows[i].at("working_set_kb");
              double slope = (double(cache.get(chase(kb, kLong)).cycles) - double(cache.get(chase(kb, kShort)).cycles)) /
                             (kLong - kShort);
              table.rows.push_back(row("chase " + kb + " KB (" + t.rows[i].at("level") + ") cycles per load",
                                       t.number(i, "cycles_per_dependent_load"), slope, Tolerance::relative(0.05)));
            }
            return table;
          }};
}

// ---- H100 block dispatch: dispatch.csv --------------------------------------------------------
// Event time of emptyKernel launches (launch overhead + GPU time) within ±25%: the GigaThread
// engine's rate is one preset number, the launch overhead another; this table checks that the
// two together follow the measured growth from 132 to 132,000 blocks.
TableBuilder h100_dispatch() {
  auto file = [] { return read_csv(validation_data_dir() / "dispatch.csv"); };
  auto empty = [](const std::map<std::string, std::string>& r) {
    auto p = split_params(r.at("params"));
    return library_request("hopper-h100", "emptyKernel", {"block=" + p.at("bs"), "grid=" + p.at("blocks")});
  };
  return {"h100-dispatch",
          [=](RunCache& cache, const ValidationOptions&) {
            for (const auto& r : file().rows) cache.want(empty(r));
          },
          [=](RunCache& cache, const ValidationOptions&) {
            ValidationTable table{"h100-dispatch", "calibration/h100/dispatch.csv (emptyKernel, event timing)", {}};
            CsvTable t = file();
            const double launch_ms = double(models::load_arch("hopper-h100").launch_overhead_ns) * 1e-6;
            for (std::size_t i = 0; i < t.rows.size(); ++i)
              table.rows.push_back(row("emptyKernel " + t.rows[i].at("params") + " ms", t.number(i, "event_median_ms"),
                                       launch_ms + cache.get(empty(t.rows[i])).time_ms, Tolerance::relative(0.25)));
            return table;
          }};
}

// ---- Fermi, SPEC S5 (seeds/004) -----------------------------------------------------------------
// Efficiencies within ±1.5 points (the source prints 49.81% for the ideal 50%); the transaction
// ratio offset 11 / offset 0 within ±5% of the printed 2.01 (absolute counts were sampled on a
// subset of SMs, S5 note); time ratios within ±10% (issue 5).
RunRequest s5_request(const std::map<std::string, std::string>& r) {
  std::vector<std::string> params{"n=" + r.at("n"), "block=" + r.at("block")};
  if (!r.at("offset").empty()) params.push_back("offset=" + r.at("offset"));
  if (r.at("kernel") == "readOffsetUnroll") params.push_back("unroll=4");
  RunRequest req = library_request("fermi-m2070", r.at("kernel"), params);
  // "L1 off" in seeds/004 is the same kernel compiled with -Xptxas -dlcm=cg: global loads
  // bypass L1 (S3.3). That is a property of the build, which the preset switch models.
  if (r.at("l1") == "off") req.arch_overrides.push_back("l1.caches_global=false");
  return req;
}

TableBuilder fermi_s5() {
  auto file = [] { return read_csv(validation_data_dir() / "spec_s5.csv"); };
  return {"fermi-s5",
          [=](RunCache& cache, const ValidationOptions&) {
            for (const auto& r : file().rows) cache.want(s5_request(r));
          },
          [=](RunCache& cache, const ValidationOptions&) {
            ValidationTable table{"fermi-s5", "SPEC S5 (seeds/004): Tesla M2070", {}};
            CsvTable t = file();
            auto result = [&](std::size_t i) -> const models::RunResult& { return cache.get(s5_request(t.rows[i])); };
            auto find = [&](const std::string& c, const std::string& column, const std::string& value) -> std::size_t {
              for (std::size_t i = 0; i < t.rows.size(); ++i)
                if (t.rows[i].at("case") == c && t.rows[i].at(column) == value) return i;
              throw std::out_of_range(c + " " + value);
            };
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
              const auto& r = t.rows[i];
              std::string label = r.at("case") + (r.at("offset").empty() ? "" : " offset " + r.at("offset"));
              for (const char* eff : {"gld_efficiency", "gst_efficiency"})
                if (!r.at(eff).empty())
                  table.rows.push_back(row(label + " " + eff, t.number(i, eff), RunCache::metric(result(i), eff),
                                           Tolerance::absolute(1.5)));
            }
            // Ratios against a baseline row of the same case.
            auto ratio_row = [&](const std::string& label, std::size_t i, std::size_t base, const char* column,
                                 const char* metric, Tolerance tol) {
              table.rows.push_back(row(label, t.number(i, column) / t.number(base, column),
                                       RunCache::metric(result(i), metric) / RunCache::metric(result(base), metric), tol));
            };
            for (const char* c : {"readOffset_l1_on", "readOffset_l1_off", "writeOffset", "unroll4"})
              for (const char* off : {"11", "128"})
                ratio_row(std::string(c) + " time offset " + off + " / offset 0", find(c, "offset", off),
                          find(c, "offset", "0"), "time_ms", "time_ms", Tolerance::relative(0.10));
            ratio_row("readOffset_l1_on gld_transactions offset 11 / offset 0", find("readOffset_l1_on", "offset", "11"),
                      find("readOffset_l1_on", "offset", "0"), "gld_transactions", "gld_transactions",
                      Tolerance::relative(0.05));
            ratio_row("aos time / soa time", find("aos", "case", "aos"), find("soa", "case", "soa"), "time_ms", "time_ms",
                      Tolerance::relative(0.10));
            for (const char* b : {"1024", "512", "128"})
              ratio_row(std::string("unroll4 block ") + b + " time / block 256", find("unroll4_block", "block", b),
                        find("unroll4_block", "block", "256"), "time_ms", "time_ms", Tolerance::relative(0.10));
            return table;
          }};
}

}  // namespace

const std::vector<TableBuilder>& validation_tables() {
  static const std::vector<TableBuilder> tables = {fermi_s5(),       h100_counters(),   h100_latency(),
                                                   h100_dispatch(),  h100_persistence(), h100_apps_table(),
                                                   h100_limiter_table()};
  return tables;
}

}  // namespace warpsim::analysis
