#pragma once
// A calibration directory as tools/gpu-probes/calibrate writes it, read and checked whole before
// anything is derived from it: every file there, every column the derivation reads, every file
// measured on the GPU device.csv names (its '# gpu:' provenance line), and no value that no GPU
// can have. Anything else is an InputError naming file:line and cause.
#include <filesystem>
#include <optional>
#include <string>

#include "analysis/validation/reference_data.hpp"

namespace warpsim::analysis {

struct CalibrationData {
  std::filesystem::path dir;
  std::string gpu;         // device.csv's name: "NVIDIA H200"
  std::string provenance;  // device.csv's gpu and date lines: "NVIDIA H200 (compute capability 9.0), ..."
  CsvTable device, latency, dispatch, bandwidth, offset, stride;
  std::optional<CsvTable> persist;  // persist_10MB.csv, written where the GPU has persisting L2
  // setaside_stores.csv's two tables, written where the GPU has persisting L2: write streams under
  // set-asides of several sizes ("stream"/"fenced" rows), then the set-aside the driver grants for
  // each request and the stream at each granted size ("granted" rows).
  struct SetAsideStores {
    CsvTable streams, grants;
  };
  std::optional<SetAsideStores> set_aside;
  // l2_slice_pairs.csv (or .csv.xz), calibrate's slice-map family: for pairs of lines one thread
  // read in turn, the most requests one L2 slice took (all of them where one slice serves both).
  // Optional: a calibration without it leaves the slice map inherited.
  std::optional<CsvTable> slice_pairs;
};

CalibrationData read_calibration(const std::filesystem::path& dir);

// "latency.csv:8": a row of one of the files, as preset sources cite it (the file's name only:
// the preset's header names the directory).
std::string cite(const CsvTable& table, std::size_t row);

// Several rows: "offset.csv:7-36" where they are consecutive lines, else "offset.csv:7,9,12".
std::string cite(const CsvTable& table, const std::vector<std::size_t>& rows);

// The rows of `table` whose column `column` equals `value`, in file order.
std::vector<std::size_t> rows_where(const CsvTable& table, const std::string& column, const std::string& value);

}  // namespace warpsim::analysis
