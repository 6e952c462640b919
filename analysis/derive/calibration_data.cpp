// See calibration_data.hpp. The checks here are those no derivation should have to repeat: each
// file present and complete, all of one GPU, and each number one a GPU can have.
#include "analysis/derive/calibration_data.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analysis/derive/derivation.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {
namespace fs = std::filesystem;

// What calibrate writes, with the columns the derivation and the validation tables read.
struct FileSpec {
  const char* name;
  std::vector<const char*> columns;
};
const FileSpec kDevice{"device.csv",
                       {"name", "sms", "l2", "persistMax", "maxWindow", "clockKHz", "memClockKHz", "busWidth", "cc",
                        "maxThreadsPerSM", "regsPerSM", "smemPerSM", "maxBlocksPerSM", "maxThreadsPerBlock",
                        "smemPerBlockOptin", "reservedSmemPerBlock", "regsPerBlock", "warpSize"}};
const FileSpec kLatency{"latency.csv", {"working_set_kb", "cycles_per_dependent_load", "level"}};
const FileSpec kDispatch{"dispatch.csv", {"case", "params", "event_median_ms"}};
const FileSpec kBandwidth{"bandwidth.csv", {"case", "params", "event_median_ms", "GBps"}};
const std::vector<const char*> kCounterColumns = {
    "case", "params", "kernel", "gpu__time_duration.sum", "smsp__inst_executed.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "l1tex__t_sector_hit_rate.pct",
    "dram__bytes_read.sum", "dram__bytes_write.sum", "sm__warps_active.avg.pct_of_peak_sustained_active"};
const FileSpec kOffset{"offset.csv", kCounterColumns};
const FileSpec kStride{"stride.csv", kCounterColumns};
const FileSpec kPersist{"persist_10MB.csv", kCounterColumns};
const FileSpec kSetAsideStores{"setaside_stores.csv",
                               {"kind", "setAsideKB", "warps_per_sm", "kernel_ns"}};
const FileSpec kSlicePairs{"l2_slice_pairs.csv", {"a", "b", "offset_a", "offset_b", "requests_max", "requests_sum"}};
const std::vector<const char*> kGrantColumns = {"kind", "requestedKB", "grantedKB", "order", "kernel_ns"};

// The path of calibrate's file `name` in `dir`, which must be there.
fs::path present(const fs::path& dir, const char* name) {
  const fs::path path = dir / name;
  if (!fs::is_regular_file(path))
    throw sim::InputError(path.string(), "missing: tools/gpu-probes/calibrate writes it (tools/gpu-probes/README.md)");
  return path;
}

// The table at `path`, with the columns `spec` names and at least one row.
CsvTable read_table(const fs::path& path, const FileSpec& spec) {
  CsvTable t = read_csv(path);
  for (const char* c : spec.columns) t.require_column(c);
  if (t.rows.empty()) throw sim::InputError(path.string() + ":" + std::to_string(t.header_line), "no data rows");
  return t;
}

CsvTable read_file(const fs::path& dir, const FileSpec& spec) { return read_table(present(dir, spec.name), spec); }

CalibrationData::SetAsideStores read_set_aside(const fs::path& dir) {
  const fs::path path = present(dir, kSetAsideStores.name);
  auto tables = read_csv_tables(path);
  if (tables.size() != 2)
    throw sim::InputError(path.string(), "expected two tables (streams, then granted set-asides), found " +
                                             std::to_string(tables.size()));
  CalibrationData::SetAsideStores s{std::move(tables[0]), std::move(tables[1])};
  for (const char* c : kSetAsideStores.columns) s.streams.require_column(c);
  for (const char* c : kGrantColumns) s.grants.require_column(c);
  for (const CsvTable* t : {&s.streams, &s.grants})
    if (t->rows.empty()) throw sim::InputError(path.string() + ":" + std::to_string(t->header_line), "no data rows");
  return s;
}

// l2_slice_pairs.csv as calibrate writes it, or compressed as the repository keeps the larger
// measurements; none where neither is there.
std::optional<CsvTable> read_slice_pairs(const fs::path& dir) {
  for (const std::string& name : {std::string(kSlicePairs.name), std::string(kSlicePairs.name) + ".xz"})
    if (fs::exists(dir / name)) return read_table(dir / name, kSlicePairs);
  return std::nullopt;
}

// The GPU a file's provenance names: "# gpu: NVIDIA H200 (compute capability 9.0), driver ...".
std::string measured_on(const CsvTable& t, int& line) {
  const std::string tag = "# gpu: ";
  for (const auto& [n, text] : t.comments)
    if (text.rfind(tag, 0) == 0) {
      line = n;
      // "NAME (compute capability X.Y), driver D", or in the earliest files "NAME, D".
      const std::string rest = text.substr(tag.size());
      const auto cc = rest.find(" (compute capability");
      return rest.substr(0, cc != std::string::npos ? cc : rest.rfind(", "));
    }
  throw sim::InputError(t.path + ":1", "no '# gpu:' provenance line (tools/gpu-probes/calibrate names the GPU, "
                                       "driver and date at the top of every file it writes)");
}

[[noreturn]] void impossible(const CsvTable& t, std::size_t row, const std::string& column, double value,
                             const std::string& why) {
  std::ostringstream out;
  out.precision(10);
  out << "impossible " << column << " " << value << ": " << why;
  throw sim::InputError(t.where(row), out.str());
}

// Whether calibrate's NOTES say it did not write `file` ("... persist_10MB.csv not written").
bool left_out(const fs::path& dir, const std::string& file) {
  std::ifstream notes(dir / "NOTES");
  for (std::string line; std::getline(notes, line);)
    if (line.rfind('#', 0) != 0 && line.find(file + " not written") != std::string::npos) return true;
  return false;
}

double positive(const CsvTable& t, std::size_t row, const std::string& column) {
  const double v = t.number(row, column);
  if (!(v > 0)) impossible(t, row, column, v, "must be greater than 0");
  return v;
}

double whole(const CsvTable& t, std::size_t row, const std::string& column, double min) {
  const double v = t.number(row, column);
  if (v < min || v != std::floor(v) || v > 1e15)
    impossible(t, row, column, v, "must be a whole number of at least " + std::to_string(int(min)));
  return v;
}

void check_device(const CsvTable& t) {
  if (t.rows.size() != 1) throw sim::InputError(t.where(1), "device.csv describes one GPU; this is a second row");
  for (const char* c : {"sms", "l2", "clockKHz", "memClockKHz", "busWidth", "maxThreadsPerSM", "regsPerSM",
                        "maxBlocksPerSM", "maxThreadsPerBlock", "regsPerBlock", "warpSize"})
    whole(t, 0, c, 1);
  for (const char* c : {"persistMax", "maxWindow", "smemPerSM", "smemPerBlockOptin", "reservedSmemPerBlock"})
    whole(t, 0, c, 0);
  const double cc = t.number(0, "cc");
  if (cc < 7.0) impossible(t, 0, "cc", cc, "tools/gpu-probes/calibrate measures compute capability 7.0 or later");
  if (t.number(0, "warpSize") != 32) impossible(t, 0, "warpSize", t.number(0, "warpSize"), "warps are 32 threads (S1.3)");
  if (std::fmod(t.number(0, "maxThreadsPerSM"), 32) != 0)
    impossible(t, 0, "maxThreadsPerSM", t.number(0, "maxThreadsPerSM"), "not a whole number of warps");
  if (t.number(0, "persistMax") > t.number(0, "l2"))
    impossible(t, 0, "persistMax", t.number(0, "persistMax"), "larger than the L2 (column l2)");
}

// Each level measured, and each slower than the one before: a chase that reaches a farther level
// in fewer cycles measured something else.
void check_latency(const CsvTable& t) {
  const std::vector<std::string> levels = {"L1", "L2", "DRAM"};
  std::map<std::string, std::size_t> slowest, fastest;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    positive(t, i, "working_set_kb");
    const double cycles = positive(t, i, "cycles_per_dependent_load");
    const std::string& level = t.rows[i].at("level");
    if (std::find(levels.begin(), levels.end(), level) == levels.end())
      throw sim::InputError(t.where(i), "level '" + level + "': expected L1, L2 or DRAM");
    if (!slowest.count(level) || cycles > t.number(slowest[level], "cycles_per_dependent_load")) slowest[level] = i;
    if (!fastest.count(level) || cycles < t.number(fastest[level], "cycles_per_dependent_load")) fastest[level] = i;
  }
  for (std::size_t k = 0; k < levels.size(); ++k) {
    if (!slowest.count(levels[k]))
      throw sim::InputError(t.path + ":" + std::to_string(t.header_line), "no row of level " + levels[k]);
    if (k == 0) continue;
    const std::size_t near = slowest[levels[k - 1]], far = fastest[levels[k]];
    if (t.number(far, "cycles_per_dependent_load") <= t.number(near, "cycles_per_dependent_load"))
      impossible(t, far, "cycles_per_dependent_load", t.number(far, "cycles_per_dependent_load"),
                 levels[k] + " is not slower than " + levels[k - 1] + " (" + t.where(near) + ")");
  }
}

// Every block size at two grid sizes at least (the dispatch rate is a slope), every time positive.
void check_dispatch(const CsvTable& t) {
  std::map<std::string, std::set<std::string>> grids;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    auto p = split_params(t.rows[i].at("params"));
    if (!p.count("bs") || !p.count("blocks"))
      throw sim::InputError(t.where(i), "params '" + t.rows[i].at("params") + "': expected bs=N;blocks=N");
    for (const char* k : {"bs", "blocks"}) {
      std::int64_t v = 0;
      if (!sim::parse_int(p[k], v) || v < 1)
        throw sim::InputError(t.where(i), std::string("params: ") + k + " '" + p[k] + "' is not a count");
    }
    positive(t, i, "event_median_ms");
    grids[p["bs"]].insert(p["blocks"]);
  }
  for (const auto& [bs, g] : grids)
    if (g.size() < 2)
      throw sim::InputError(t.path, "block size " + bs + " has one grid size; the dispatch rate needs two or more");
}

// DRAM and L2 bandwidth measured, positive, and DRAM's within what the bus can carry.
void check_bandwidth(const CsvTable& t, const CsvTable& device) {
  const double peak_gbps = device.number(0, "busWidth") / 8 * 2 * device.number(0, "memClockKHz") * 1e3 / 1e9;
  for (const char* c : {"dram_read", "l2_read"})
    if (rows_where(t, "case", c).empty())
      throw sim::InputError(t.path + ":" + std::to_string(t.header_line), std::string("no row of case ") + c);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const double gbps = positive(t, i, "GBps");
    if (t.rows[i].at("case").rfind("dram_", 0) == 0 && gbps > peak_gbps)
      impossible(t, i, "GBps", gbps,
                 "more than the bus carries (" + std::to_string(int(peak_gbps)) + " GB/s from device.csv's busWidth and memClockKHz)");
  }
}

// The count `key` of a row's params ("lg=20;bs=512;offset=1"), checked.
void check_param(const CsvTable& t, std::size_t row, const char* key, double max) {
  auto p = split_params(t.rows[row].at("params"));
  std::int64_t v = 0;
  if (!p.count(key) || !sim::parse_int(p[key], v) || v < 0 || double(v) > max)
    throw sim::InputError(t.where(row), "params '" + t.rows[row].at("params") + "': expected " + key +
                                            "=N, a whole number up to " + std::to_string(std::int64_t(max)));
}

void check_counters(const CsvTable& t, const std::vector<const char*>& params) {
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    for (const char* p : params) check_param(t, i, p, std::string(p) == "lg" ? 40 : 1e9);
    positive(t, i, "gpu__time_duration.sum");
    for (const char* c : {"smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"})
      whole(t, i, c, 0);
  }
}

// Byte offsets of lines, and request counts a slice can have taken (no more than the launch made).
void check_slice_pairs(const CsvTable& t) {
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    for (const char* c : {"offset_a", "offset_b", "requests_max"}) whole(t, i, c, 0);
    if (whole(t, i, "requests_sum", 1) < t.number(i, "requests_max"))
      impossible(t, i, "requests_max", t.number(i, "requests_max"), "more than the launch's requests (requests_sum)");
    if (t.number(i, "offset_a") == t.number(i, "offset_b"))
      impossible(t, i, "offset_b", t.number(i, "offset_b"), "the same line as offset_a: a pair is two lines");
  }
}

// Sizes the driver can grant (none above persistMax), whole counts, and each time positive (a
// granted row's -1: not run again, its size as the row before).
void check_set_aside(const CalibrationData::SetAsideStores& s, const CsvTable& device) {
  const double max_kb = device.number(0, "persistMax") / 1024;
  for (std::size_t i = 0; i < s.streams.rows.size(); ++i) {
    const std::string& kind = s.streams.rows[i].at("kind");
    if (kind != "stream" && kind != "fenced")
      throw sim::InputError(s.streams.where(i), "kind '" + kind + "': expected stream or fenced");
    if (whole(s.streams, i, "setAsideKB", 0) > max_kb)
      impossible(s.streams, i, "setAsideKB", s.streams.number(i, "setAsideKB"),
                 "more than device.csv's persistMax (" + fixed(max_kb, 0) + " KB)");
    whole(s.streams, i, "warps_per_sm", 1);
    positive(s.streams, i, "kernel_ns");
  }
  for (std::size_t i = 0; i < s.grants.rows.size(); ++i) {
    if (s.grants.rows[i].at("kind") != "granted")
      throw sim::InputError(s.grants.where(i), "kind '" + s.grants.rows[i].at("kind") + "': expected granted");
    whole(s.grants, i, "requestedKB", 0);
    if (whole(s.grants, i, "grantedKB", 0) > max_kb)
      impossible(s.grants, i, "grantedKB", s.grants.number(i, "grantedKB"),
                 "more than device.csv's persistMax (" + fixed(max_kb, 0) + " KB)");
    if (s.grants.number(i, "kernel_ns") != -1) positive(s.grants, i, "kernel_ns");
  }
}

}  // namespace

std::string cite(const CsvTable& table, std::size_t row) {
  return fs::path(table.path).filename().string() + ":" + std::to_string(table.lines.at(row));
}

std::string cite(const CsvTable& table, const std::vector<std::size_t>& rows) {
  std::string out = cite(table, rows.at(0));
  bool consecutive = true;
  for (std::size_t k = 1; k < rows.size(); ++k)
    consecutive = consecutive && table.lines.at(rows[k]) == table.lines.at(rows[k - 1]) + 1;
  if (rows.size() > 1 && consecutive) return out + "-" + std::to_string(table.lines.at(rows.back()));
  for (std::size_t k = 1; k < rows.size(); ++k) (out += ',') += std::to_string(table.lines.at(rows[k]));
  return out;
}

std::vector<std::size_t> rows_where(const CsvTable& table, const std::string& column, const std::string& value) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < table.rows.size(); ++i)
    if (table.rows[i].at(column) == value) out.push_back(i);
  return out;
}

CalibrationData read_calibration(const fs::path& dir) {
  if (!fs::is_directory(dir))
    throw sim::InputError(dir.string(), "not a directory (give the directory tools/gpu-probes/calibrate wrote)");
  CalibrationData d;
  d.dir = dir;
  d.device = read_file(dir, kDevice);
  d.latency = read_file(dir, kLatency);
  d.dispatch = read_file(dir, kDispatch);
  d.bandwidth = read_file(dir, kBandwidth);
  d.offset = read_file(dir, kOffset);
  d.stride = read_file(dir, kStride);
  check_device(d.device);
  // Where the GPU has a persisting L2, calibrate measures it, or says in NOTES why it could not
  // (no set-aside granted: MIG, MPS).
  if (d.device.number(0, "persistMax") > 0 && (fs::exists(dir / kPersist.name) || !left_out(dir, kPersist.name)))
    d.persist = read_file(dir, kPersist);
  if (d.device.number(0, "persistMax") > 0 &&
      (fs::exists(dir / kSetAsideStores.name) || !left_out(dir, kSetAsideStores.name)))
    d.set_aside = read_set_aside(dir);
  d.slice_pairs = read_slice_pairs(dir);

  // One GPU: device.csv's name, and every file's provenance naming it.
  d.gpu = d.device.rows[0].at("name");
  std::vector<const CsvTable*> files = {&d.device, &d.latency, &d.dispatch, &d.bandwidth, &d.offset, &d.stride};
  if (d.persist) files.push_back(&*d.persist);
  if (d.set_aside) files.push_back(&d.set_aside->streams);
  if (d.slice_pairs) files.push_back(&*d.slice_pairs);
  for (const CsvTable* t : files) {
    int line = 0;
    const std::string gpu = measured_on(*t, line);
    if (gpu != d.gpu)
      throw sim::InputError(t->path + ":" + std::to_string(line),
                            "measured on '" + gpu + "', but " + cite(d.device, 0) + " names '" + d.gpu +
                                "': every file of a calibration must come from one GPU");
  }
  for (const auto& [line, text] : d.device.comments)
    if (text.rfind("# gpu: ", 0) == 0 || text.rfind("# date: ", 0) == 0)
      d.provenance += (d.provenance.empty() ? "" : ", ") + text.substr(text.find(':') + 2);

  check_latency(d.latency);
  check_dispatch(d.dispatch);
  check_bandwidth(d.bandwidth, d.device);
  check_counters(d.offset, {"lg", "bs", "offset"});
  check_counters(d.stride, {"lg", "bs", "stride"});
  if (d.persist) check_counters(*d.persist, {"persistMB", "window"});
  if (d.set_aside) check_set_aside(*d.set_aside, d.device);
  if (d.slice_pairs) check_slice_pairs(*d.slice_pairs);
  return d;
}

}  // namespace warpsim::analysis
