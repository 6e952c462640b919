#pragma once
// Reading the reference tables that ship with warpsim (analysis/validation/data/).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace warpsim::analysis {

// A CSV file as rows of column -> text. Lines starting with '#' are comments. A cell may be
// quoted ("(16, 16, 1)", as Nsight Compute writes them), with "" for a quote inside.
struct CsvTable {
  std::string path;
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<int> lines;  // each row's line in the file
  int header_line = 0;     // the line of the column names
  // The '#' lines (provenance: command, GPU, driver, date), with their line numbers.
  std::vector<std::pair<int, std::string>> comments;
  // Numeric cell; throws InputError naming file:line and the column when absent or not a number.
  double number(std::size_t row, const std::string& column) const;
  // "file:line" of a row, for messages.
  std::string where(std::size_t row) const;
  // Throws InputError naming the header's file:line unless it has `column`.
  void require_column(const std::string& column) const;
};
// One table; a second header line is an InputError naming it. A name ending in .xz is read through
// xz.
CsvTable read_csv(const std::filesystem::path& path);
// A file of several tables one after the other, each from its header line: a line whose first cell
// is the first header's first column name ("kind,setAsideKB,..." then "kind,requestedKB,...", as
// tools/gpu-probes/setaside_stores.cu writes them). The file's '#' lines are the first table's.
std::vector<CsvTable> read_csv_tables(const std::filesystem::path& path);

// Where the reference data lives: $WARPSIM_DATA_DIR, the install's share/warpsim/validation,
// or the source tree.
std::filesystem::path validation_data_dir();

// "lg=20;bs=512;offset=1" -> {lg: 20, bs: 512, offset: 1}
std::map<std::string, std::string> split_params(const std::string& params);

}  // namespace warpsim::analysis
