#include "analysis/validation/reference_data.hpp"

#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/config.hpp"
#include "sim/data_dir.hpp"
#include "sim/errors.hpp"
#include "traces/accelsim/byte_source.hpp"

namespace warpsim::analysis {
namespace fs = std::filesystem;
namespace {
// One CSV line's cells; a quoted cell may hold commas. Throws InputError naming `where` for an
// unterminated quote.
std::vector<std::string> split_cells(const std::string& line, const std::string& where) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"')
        cell += c;
      else if (i + 1 < line.size() && line[i + 1] == '"')
        cell += line[++i];
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  if (quoted) throw sim::InputError(where, "a quoted cell is not closed");
  out.push_back(std::move(cell));
  return out;
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, sep)) out.push_back(cell);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

// The whole text of a table: a name ending in .xz is read through xz (the larger measurements are
// kept compressed, as analysis/validation/measured_csv.py reads them).
std::string table_text(const fs::path& path) {
  if (path.extension() == ".xz") {
    const auto source = traces::accelsim::open_byte_source(path.string());
    std::string text;
    char buffer[1 << 16];
    for (std::size_t n; (n = source->read(buffer, sizeof buffer)) > 0;) text.append(buffer, n);
    return text;
  }
  std::ifstream in(path);
  if (!in) throw sim::InputError(path.string(), "cannot open reference table");
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

std::vector<CsvTable> read_csv_tables(const fs::path& path) {
  std::vector<CsvTable> tables(1);
  tables[0].path = path.string();
  std::istringstream in(table_text(path));
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '#') tables[0].comments.emplace_back(line_no, line);
    if (line.empty() || line[0] == '#') continue;
    const std::string where = tables[0].path + ":" + std::to_string(line_no);
    auto cells = split_cells(line, where);
    if (!tables[0].columns.empty() && cells[0] == tables[0].columns[0]) {  // the next table's header
      CsvTable next;
      next.path = tables[0].path;
      tables.push_back(std::move(next));
    }
    CsvTable& t = tables.back();
    if (t.columns.empty()) {
      t.columns = cells;
      t.header_line = line_no;
      continue;
    }
    if (cells.size() != t.columns.size())
      throw sim::InputError(where, "expected " + std::to_string(t.columns.size()) + " cells, found " +
                                       std::to_string(cells.size()));
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size(); ++i) row[t.columns[i]] = cells[i];
    t.rows.push_back(std::move(row));
    t.lines.push_back(line_no);
  }
  if (tables[0].columns.empty()) throw sim::InputError(tables[0].path, "empty table: no header line");
  return tables;
}

CsvTable read_csv(const fs::path& path) {
  auto tables = read_csv_tables(path);
  if (tables.size() > 1)
    throw sim::InputError(tables[0].path + ":" + std::to_string(tables[1].header_line),
                          "a second header line ('" + tables[1].columns[0] + ",...'): expected one table");
  return std::move(tables[0]);
}

std::string CsvTable::where(std::size_t row) const { return path + ":" + std::to_string(lines.at(row)); }

void CsvTable::require_column(const std::string& column) const {
  for (const auto& c : columns)
    if (c == column) return;
  throw sim::InputError(path + ":" + std::to_string(header_line), "no column '" + column + "'");
}

double CsvTable::number(std::size_t row, const std::string& column) const {
  auto it = rows.at(row).find(column);
  double v = 0;
  if (it == rows.at(row).end() || !sim::parse_float(it->second, v))
    throw sim::InputError(where(row), "no number in column '" + column + "'" +
                                          (it == rows.at(row).end() ? "" : " (found '" + it->second + "')"));
  return v;
}

fs::path validation_data_dir() {
  return sim::data_dir("WARPSIM_DATA_DIR", "validation", WARPSIM_VALIDATION_DATA_DIR);
}

std::map<std::string, std::string> split_params(const std::string& params) {
  std::map<std::string, std::string> out;
  for (const auto& kv : split(params, ';')) {
    auto eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

}  // namespace warpsim::analysis
