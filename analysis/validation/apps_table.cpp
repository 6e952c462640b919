// h100-apps: PolyBench/GPU, Rodinia and CUDA-samples programs on the H100, launch by launch
// (data/h100-apps/README.md says how they were traced and profiled). Launch k of a program's
// kernelslist.g is data row k of its ncu.csv; ncu measured with --cache-control all (every cache
// flushed before each launch) and timed each launch alone, so each program runs in the same
// mode here (RunRequest::ncu). The data is checked before anything is simulated: a missing
// column, a row count that differs from the launch count, rows out of launch order, a grid, block
// or instruction count that differs from the trace's is an InputError naming file and line, never
// a skipped row.
#include "analysis/validation/apps_table.hpp"

#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "analysis/validation/exact_counters.hpp"
#include "analysis/validation/gpu_tables.hpp"
#include "analysis/validation/reference_data.hpp"
#include "sim/errors.hpp"
#include "traces/open_workload.hpp"

namespace warpsim::analysis {
namespace {
namespace fs = std::filesystem;

// The six programs of calibration/h100/apps, in its README's order.
constexpr const char* kPrograms[] = {"2dconv", "syrk", "fdtd2d", "backprop", "gaussian", "matrixMul"};

// ncu columns read, with the unit the units row (ncu --print-units base) must give them.
struct NcuColumn {
  const char* name;
  const char* unit;
};
constexpr NcuColumn kColumns[] = {
    {"ID", ""},
    {"Kernel Name", ""},
    {"Grid Size", ""},
    {"Block Size", ""},
    {"gpu__time_duration.sum", "ns"},
    {"smsp__inst_executed.sum", "inst"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ""},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", ""},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sector"},
    {"l1tex__t_sector_hit_rate.pct", "%"},
    {"lts__t_sector_hit_rate.pct", "%"},
    {"dram__bytes_read.sum", "byte"},
    {"dram__bytes_write.sum", "byte"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "%"},
};

// Time within ±10% (issue 25's goal; the tolerance of every time in h100-counters).
constexpr double kTimeTolerance = 0.10;
// The cache and occupancy rows are compared only on launches that move more than this much DRAM
// traffic (measured read + write): below it a launch touches a few hundred lines, and a hit rate
// or an average over its few microseconds rests on a handful of events (issue 25's goal).
constexpr double kCacheRowsMinDramBytes = 100e3;
// L2 hit rate within 5 points (issue 25's goal): lts__t_sector_hit_rate counts every L2 sector
// lookup, and what the lookups are (loads, stores, atomics, lookups forwarded between the two L2
// partitions) is not yet settled on the GPU (issue 25, section 2).
constexpr double kL2HitPoints = 5.0;
// L1 hit rate within 5 points, not h100-counters' 1.5: there one warp's own accesses decide it;
// here blocks that share an SM reuse each other's lines (stencil halos, shared operands), so the
// rate depends on which blocks run side by side on an SM, which the GPU's block placement decides
// and no measurement shows. The same 5 points as L2 for want of a measured spread.
constexpr double kL1HitPoints = 5.0;
// DRAM bytes (read + write) within ±5% (issue 25's goal; h100-persistence's tolerance).
constexpr double kDramTolerance = 0.05;
// Achieved occupancy within ±0.05 (issue 25's goal): wider than h100-counters' 0.03, the spread
// of ncu's repeats of one long kernel; these launches last microseconds and no repeat measures
// their spread.
constexpr double kOccupancyTolerance = 0.05;

struct ProgramData {
  std::string name;
  fs::path list;           // kernelslist.g
  CsvTable ncu;            // rows[0]: the units row; launch k: rows[k]
  CsvTable trace_lines;    // launch k: rows[k - 1]
  std::vector<std::string> launch_files;  // kernelslist.g's launches, in order
};

fs::path program_dir(const std::string& name) { return validation_data_dir() / "h100-apps" / name; }

void check_ncu_header(const CsvTable& ncu) {
  for (const auto& c : kColumns) ncu.require_column(c.name);
  if (ncu.rows.empty() || !ncu.rows[0].at("ID").empty())
    throw sim::InputError(ncu.path + ":2", "expected the units row (ncu --print-units base) after the header");
  for (const auto& c : kColumns)
    if (*c.unit && ncu.rows[0].at(c.name) != c.unit)
      throw sim::InputError(ncu.where(0), "column '" + std::string(c.name) + "' is in '" + ncu.rows[0].at(c.name) +
                                              "', expected '" + c.unit + "'");
}

// "(16, 16, 1)" -> {16, 16, 1}; throws naming `where` otherwise.
std::array<std::uint32_t, 3> parse_dim(const std::string& text, const std::string& where, const std::string& column) {
  std::array<std::uint32_t, 3> d{};
  char open = 0, c1 = 0, c2 = 0, close = 0;
  std::istringstream in(text);
  if (!(in >> open >> d[0] >> c1 >> d[1] >> c2 >> d[2] >> close) || open != '(' || c1 != ',' || c2 != ',' ||
      close != ')')
    throw sim::InputError(where, "column '" + column + "': expected (x, y, z), found '" + text + "'");
  return d;
}

std::string dim_text(const std::array<std::uint32_t, 3>& d) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

ProgramData load_program(const std::string& name) {
  ProgramData p;
  p.name = name;
  const fs::path dir = program_dir(name);
  p.list = dir / "kernelslist.g";
  // Every launch's trace file must exist (open_workload checks, .xz included).
  const traces::Workload workload = traces::open_workload(p.list.string());
  std::vector<traces::KernelInfo> headers;  // each launch's trace header
  for (const auto& step : workload.steps)
    if (step.kind == traces::WorkloadStep::Kind::Launch) {
      p.launch_files.push_back(step.launch.label);
      headers.push_back(step.launch.open()->info());
    }
  const std::size_t launches = p.launch_files.size();

  p.ncu = read_csv(dir / "ncu.csv");
  check_ncu_header(p.ncu);
  const std::size_t ncu_launches = p.ncu.rows.size() - 1;
  if (ncu_launches != launches)
    throw sim::InputError(p.ncu.where(p.ncu.rows.size() - 1),
                          std::to_string(ncu_launches) + " launch rows for the " + std::to_string(launches) +
                              " launches of " + p.list.string() + (ncu_launches < launches ? " (rows missing)" : ""));
  p.trace_lines = read_csv(dir / "trace_lines.csv");
  for (const char* c : {"launch", "file", "instruction_lines"}) p.trace_lines.require_column(c);
  if (p.trace_lines.rows.size() != launches)
    throw sim::InputError(p.trace_lines.path, std::to_string(p.trace_lines.rows.size()) + " rows for the " +
                                                  std::to_string(launches) + " launches of " + p.list.string());
  for (std::size_t k = 1; k <= launches; ++k) {
    if (p.ncu.number(k, "ID") != double(k - 1))
      throw sim::InputError(p.ncu.where(k), "ID " + p.ncu.rows[k].at("ID") + ", expected " + std::to_string(k - 1) +
                                                ": rows must follow the launch order of kernelslist.g");
    const auto& lines = p.trace_lines.rows[k - 1];
    if (p.trace_lines.number(k - 1, "launch") != double(k) || lines.at("file") != p.launch_files[k - 1])
      throw sim::InputError(p.trace_lines.where(k - 1), "expected launch " + std::to_string(k) + ", " +
                                                            p.launch_files[k - 1] + " (kernelslist.g's order)");
    for (const char* column : {"Grid Size", "Block Size"}) {
      const traces::Dim3& d = column[0] == 'G' ? headers[k - 1].grid : headers[k - 1].block;
      const std::array<std::uint32_t, 3> traced{d.x, d.y, d.z};
      const auto measured = parse_dim(p.ncu.rows[k].at(column), p.ncu.where(k), column);
      if (measured != traced)
        throw sim::InputError(p.ncu.where(k), "launch " + std::to_string(k) + ": " + column + " " + dim_text(measured) +
                                                  ", but its trace " + p.launch_files[k - 1] + " has " + dim_text(traced));
    }
    const double traced = p.trace_lines.number(k - 1, "instruction_lines");
    const double measured = p.ncu.number(k, "smsp__inst_executed.sum");
    if (traced != measured) {
      std::ostringstream why;
      why << std::fixed << std::setprecision(0) << "launch " << k << ": smsp__inst_executed.sum " << measured
          << ", but its trace " << p.launch_files[k - 1] << " has " << traced << " instruction lines ("
          << p.trace_lines.where(k - 1) << "): the profile and the trace are not of the same run";
      throw sim::InputError(p.ncu.where(k), why.str());
    }
  }
  return p;
}

models::RunRequest program_request(const std::string& arch, const ProgramData& p) {
  return apps_program_request(p.name, arch);
}

// "void MatrixMulCUDA<16>(float *, ...)" -> "MatrixMulCUDA<16>"
std::string short_name(const std::string& ncu_name) {
  std::string s = ncu_name.substr(0, ncu_name.find('('));
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return s;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = double(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

// Adds one program's rows; returns its launches' relative time errors.
std::vector<double> add_program(ValidationTable& table, const ProgramData& p, const models::RunResult& result) {
  const CsvTable& ncu = p.ncu;
  if (result.kernels.size() != p.launch_files.size())
    throw std::logic_error(p.name + ": " + std::to_string(result.kernels.size()) + " launches simulated of " +
                           std::to_string(p.launch_files.size()));
  std::vector<double> errors;
  for (std::size_t k = 1; k <= p.launch_files.size(); ++k) {
    const models::LaunchResult& launch = result.kernels[k - 1];
    const std::string label = p.name + " " + std::to_string(k) + " " + short_name(ncu.rows[k].at("Kernel Name"));
    auto metric = [&](const char* name) {
      for (const auto& [n, v] : launch.metrics)
        if (n == name) return v;
      throw std::out_of_range(std::string("no metric ") + name);
    };
    for (const auto& c : kExactCounters)  // exact where the hardware is exact
      table.rows.push_back(compare_row(label + " " + c.metric, ncu.number(k, c.ncu), metric(c.metric), Tolerance::exact()));
    const double measured_ns = ncu.number(k, "gpu__time_duration.sum"), simulated_ns = launch.time_ms * 1e6;
    table.rows.push_back(compare_row(label + " time_ns", measured_ns, simulated_ns, Tolerance::relative(kTimeTolerance)));
    table.time_points.push_back({p.name, label, measured_ns, simulated_ns});
    errors.push_back((simulated_ns - measured_ns) / measured_ns);

    const double dram = ncu.number(k, "dram__bytes_read.sum") + ncu.number(k, "dram__bytes_write.sum");
    if (dram <= kCacheRowsMinDramBytes) continue;
    table.rows.push_back(compare_row(label + " l1_hit_rate", ncu.number(k, "l1tex__t_sector_hit_rate.pct"),
                                     metric("l1_hit_rate"), Tolerance::absolute(kL1HitPoints)));
    table.rows.push_back(compare_row(label + " l2_hit_rate", ncu.number(k, "lts__t_sector_hit_rate.pct"),
                                     metric("l2_hit_rate"), Tolerance::absolute(kL2HitPoints)));
    table.rows.push_back(compare_row(label + " dram_bytes", dram, metric("dram_read_bytes") + metric("dram_write_bytes"),
                                     Tolerance::relative(kDramTolerance)));
    table.rows.push_back(compare_row(label + " achieved_occupancy",
                                     ncu.number(k, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100,
                                     metric("achieved_occupancy"), Tolerance::absolute(kOccupancyTolerance)));
  }
  return errors;
}

void add_summary(ValidationTable& table, const std::vector<std::pair<std::string, std::vector<double>>>& errors) {
  std::vector<double> all, log_measured, log_simulated;
  for (const auto& [program, e] : errors) all.insert(all.end(), e.begin(), e.end());
  for (const auto& p : table.time_points) {
    log_measured.push_back(std::log(p.measured));
    log_simulated.push_back(std::log(p.simulated));
  }
  auto mape = [](const std::vector<double>& e) {
    double sum = 0;
    for (double x : e) sum += std::fabs(x);
    return e.empty() ? 0.0 : 100.0 * sum / double(e.size());
  };
  std::size_t within = 0;
  for (double x : all) within += std::fabs(x) <= kTimeTolerance;
  table.summary.emplace_back("launches", double(all.size()));
  table.summary.emplace_back("time MAPE %", mape(all));
  table.summary.emplace_back("Pearson r of log time", pearson(log_measured, log_simulated));
  table.summary.emplace_back("launches with time within 10%", double(within));
  for (const auto& [program, e] : errors) table.summary.emplace_back(program + " time MAPE %", mape(e));
}

}  // namespace

models::RunRequest apps_program_request(const std::string& program, const std::string& arch) {
  models::RunRequest r;
  r.arch = arch;
  r.trace = (program_dir(program) / "kernelslist.g").string();
  r.ncu = true;
  r.ncu_flush_caches = true;  // ncu's default --cache-control all, as the corpus was profiled
  return r;
}

TableBuilder h100_apps_table() {
  return {"h100-apps",
          [](RunCache& cache, const ValidationOptions& o) {
            const std::string arch = table_arch("hopper-h100", o);
            for (const char* name : kPrograms) cache.want(program_request(arch, load_program(name)));
          },
          [](RunCache& cache, const ValidationOptions& o) {
            ValidationTable table{"h100-apps",
                                  "calibration/h100/apps (6 programs, Nsight Compute per launch, H100 80GB HBM3); "
                                  "simulated as ncu measures (--ncu, --cache-control all)",
                                  {}};
            std::vector<std::pair<std::string, std::vector<double>>> errors;
            const std::string arch = table_arch("hopper-h100", o);
            for (const char* name : kPrograms) {
              const ProgramData p = load_program(name);
              errors.emplace_back(name, add_program(table, p, cache.get(program_request(arch, p))));
            }
            add_summary(table, errors);
            return table;
          }};
}

}  // namespace warpsim::analysis
