// The built-in validation tables, in the order `warpsim validate` runs them. Each GPU measured with
// tools/gpu-probes/calibrate gets the same four tables (gpu_tables.hpp) from its own files.
#include "analysis/validation/apps_table.hpp"
#include "analysis/validation/fermi_s5_table.hpp"
#include "analysis/validation/gpu_tables.hpp"
#include "analysis/validation/limiter_table.hpp"

namespace warpsim::analysis {

const std::vector<TableBuilder>& validation_tables() {
  // The H100's files are the top level of data/ (copies of ../shared/calibration/h100); the
  // H200's are calibrate's output in data/h200/, and h200/sparse.csv and warp_lifetime.csv
  // measure-h100's. sparse.csv: stridedRead past stride 64 (tools/gpu-probes/measure-h100 sparse);
  // h100-measured/warp_lifetime.csv: fmaChain, one to 16 warps a scheduler (measure-h100 warp-lifetime).
  static const MeasuredGpu h100{"h100", "hopper-h100", "", "calibration/h100", "H100 80GB HBM3",
                                {"h100-measured/sparse.csv", "h100-measured/warp_lifetime.csv"}};
  static const MeasuredGpu h200{"h200", "hopper-h200", "h200", "h200", "H200", {"h200/sparse.csv", "h200/warp_lifetime.csv"}};
  static const std::vector<TableBuilder> tables = {
      fermi_s5_table(),        counters_table(h100),  latency_table(h100),    dispatch_table(h100),
      persistence_table(h100), h100_apps_table(),     h100_limiter_table(),   counters_table(h200),
      latency_table(h200),     dispatch_table(h200),  persistence_table(h200)};
  return tables;
}

}  // namespace warpsim::analysis
