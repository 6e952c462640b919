#pragma once
// The tables every GPU measured with tools/gpu-probes/calibrate gets: <gpu>-counters (offset.csv,
// stride.csv), <gpu>-latency (latency.csv), <gpu>-dispatch (dispatch.csv) and <gpu>-persistence
// (persist_10MB.csv). One code for all of them; a MeasuredGpu says where its files are and which
// preset simulates it.
#include <string>
#include <vector>

#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"

namespace warpsim::analysis {

struct MeasuredGpu {
  std::string gpu;     // "h100": the tables are h100-counters, h100-latency, ...
  std::string preset;  // the preset its tables simulate unless validate --arch names another
  std::string folder;  // its files, within validation_data_dir() ("" for the top level)
  std::string origin;  // how the tables' sources name the files: "calibration/h100"
  std::string board;   // "H100 80GB HBM3"
  // More tables of the calibration kernels, measured as offset.csv and stride.csv were; paths
  // within validation_data_dir(), e.g. "h100-measured/sparse.csv".
  std::vector<std::string> more_counters = {};
};

TableBuilder counters_table(const MeasuredGpu& gpu);
TableBuilder persistence_table(const MeasuredGpu& gpu);
TableBuilder latency_table(const MeasuredGpu& gpu);
TableBuilder dispatch_table(const MeasuredGpu& gpu);

// The preset a table simulates: validate --arch's, else the table's own.
std::string table_arch(const std::string& own, const ValidationOptions& options);

// The run that reproduces one row of a calibration file on `arch` (the tables' and the preset
// derivation's, analysis/derive): offset.csv / stride.csv (columns kernel, params "lg=..;bs=..;
// offset=.." or "stride=.."), persist_10MB.csv, dispatch.csv; a chase of latency.csv's working set
// (in KB) for `steps` dependent loads.
models::RunRequest calibration_request(const std::string& arch, const std::map<std::string, std::string>& row);
// The counters table's rows for row `i` of a calibration table (offset.csv, stride.csv, ...)
// simulated as `result`: exact counts, L1 hit rate, time, and at n = 2^26 achieved occupancy.
std::vector<ValidationRow> calibration_rows(const CsvTable& t, std::size_t i, const models::RunResult& result);
models::RunRequest persist_request(const std::string& arch, const std::map<std::string, std::string>& row);
models::RunRequest empty_request(const std::string& arch, const std::map<std::string, std::string>& row);
models::RunRequest chase_request(const std::string& arch, const std::string& kb, int steps);

}  // namespace warpsim::analysis
