// The GigaThread engine's numbers, a kernel's start time and the host's launch overhead, the way
// hopper-h100.ini's comments derive its own (README.md, "Every kernel's time includes a fixed
// 2.16 us"). dispatch.csv times empty kernels of 1 to 1000 blocks per SM with events; each block
// size's time grows linearly with the blocks, and the slope (least squares over the grids) is
// what a block costs once the GPU is full:
// - blocks smaller than the largest cost the GigaThread engine's interval between two finished
//   blocks it takes in GPU-wide (retire_interval_cycles; block_interval_cycles, the interval
//   between two dispatches, is the same slope rounded: no slower than that);
// The rest of a block's round (its start latency, its warps' launch interval, the SM's report
// that it is done) is inherited: it needs per-warp records (tools/gpu-probes/turnaround.cu),
// which calibrate does not take, and dispatch.csv's 1024-thread round hardly depends on it in the
// model (0.19 cycles a cycle of block_retire_cycles: the GPU-wide retire interval sets the round).
// Then, as the README says, what the model leaves out of a kernel's time: ncu's times of the
// shortest offset/stride kernels exceed the model's by the kernel's start time (kernel_start_ns),
// and the event times of the smallest empty kernels exceed the model's by the host's launch
// overhead (launch_overhead_ns).
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "analysis/derive/derive_steps.hpp"
#include "analysis/validation/gpu_tables.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

using models::RunRequest;


std::int64_t param(const CsvTable& t, std::size_t row, const char* key) {
  return std::stoll(split_params(t.rows[row].at("params")).at(key));  // checked by calibration_data.cpp
}

// dispatch.csv's rows of each block size, by size.
std::map<std::int64_t, std::vector<std::size_t>> by_block_size(const CsvTable& t) {
  std::map<std::int64_t, std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) out[param(t, i, "bs")].push_back(i);
  return out;
}

// Least-squares slope of the event time over the blocks, in ms a block.
double slope_ms(const CsvTable& t, const std::vector<std::size_t>& rows) {
  double mx = 0, my = 0;
  for (std::size_t i : rows) {
    mx += double(param(t, i, "blocks")) / double(rows.size());
    my += t.number(i, "event_median_ms") / double(rows.size());
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i : rows) {
    const double dx = double(param(t, i, "blocks")) - mx;
    sxy += dx * (t.number(i, "event_median_ms") - my);
    sxx += dx * dx;
  }
  return sxy / sxx;  // calibration_data.cpp: two grid sizes or more
}

std::string us(double ns) { return fixed(ns / 1e3, 2) + " us"; }

struct Runner {
  std::string base;
  std::vector<std::string> overrides;
  RunCache cache;

  RunRequest with(RunRequest r, const std::vector<std::string>& more) const {
    r.arch_overrides = overrides;
    r.arch_overrides.insert(r.arch_overrides.end(), more.begin(), more.end());
    return r;
  }
  RunRequest empty(std::int64_t block, std::int64_t grid, const std::vector<std::string>& more) const {
    RunRequest r;
    r.arch = base;
    r.kernel = "emptyKernel";
    r.kernel_params = {"block=" + std::to_string(block), "grid=" + std::to_string(grid)};
    return with(r, more);
  }
};

void block_interval(const CalibrationData& d, const models::Arch& arch, Derivation& out) {
  const std::int64_t largest = std::int64_t(d.device.number(0, "maxThreadsPerBlock"));
  std::vector<std::size_t> rows;
  std::string sizes, values;
  double sum = 0;
  int n = 0;
  for (const auto& [bs, r] : by_block_size(d.dispatch)) {
    if (bs >= largest) continue;
    const double cycles = slope_ms(d.dispatch, r) * 1e-3 * double(arch.gpu.core_clock_khz) * 1e3;
    (sizes += n ? ", " : "") += std::to_string(bs);
    (values += n ? ", " : "") += fixed(cycles, 2);
    sum += cycles;
    ++n;
    rows.insert(rows.end(), r.begin(), r.end());
  }
  if (n == 0) throw sim::InputError(d.dispatch.path, "no rows of blocks smaller than maxThreadsPerBlock");
  std::sort(rows.begin(), rows.end());
  const std::string source = cite(d.dispatch, rows) + ": " + values + " cycles a block at bs = " + sizes +
                             " (least squares over each size's grids), mean " + fixed(sum / n, 2);
  out.set("dispatch.block_interval_cycles", std::max<std::int64_t>(1, std::llround(sum / n)), source);
  out.set("dispatch.retire_interval_cycles", fixed(sum / n, 2), source);
}

void kernel_start(const CalibrationData& d, Runner& run, Derivation& out) {
  int lg = 99;
  for (const CsvTable* t : {&d.offset, &d.stride})
    for (std::size_t i = 0; i < t->rows.size(); ++i) lg = std::min<int>(lg, int(param(*t, i, "lg")));
  const std::vector<std::string> no_start = {"dispatch.kernel_start_ns=0"};
  std::vector<std::pair<const CsvTable*, std::vector<std::size_t>>> rows;
  for (const CsvTable* t : {&d.offset, &d.stride}) {
    rows.emplace_back(t, std::vector<std::size_t>{});
    for (std::size_t i = 0; i < t->rows.size(); ++i)
      if (param(*t, i, "lg") == lg) {
        rows.back().second.push_back(i);
        run.cache.want(run.with(calibration_request(run.base, t->rows[i]), no_start));
      }
  }
  run.cache.run_all();
  std::vector<double> gaps;
  std::string where;
  for (const auto& [t, r] : rows) {
    where += (where.empty() ? "" : ", ") + cite(*t, r);
    for (std::size_t i : r)
      gaps.push_back(t->number(i, "gpu__time_duration.sum") -
                     run.cache.get(run.with(calibration_request(run.base, t->rows[i]), no_start)).time_ms * 1e6);
  }
  double mean = 0, var = 0;
  for (double g : gaps) mean += g / double(gaps.size());
  for (double g : gaps) var += (g - mean) * (g - mean) / double(gaps.size());
  const auto [lo, hi] = std::minmax_element(gaps.begin(), gaps.end());
  out.set("dispatch.kernel_start_ns", std::max<std::int64_t>(0, std::llround(mean / 10) * 10),
          where + " (the " + std::to_string(gaps.size()) + " rows at n = 2^" + std::to_string(lg) +
              "): ncu's gpu__time_duration exceeds the model's time with kernel_start_ns = 0 by " + us(mean) +
              " (mean; sd " + us(std::sqrt(var)) + ", " + us(*lo) + " to " + us(*hi) + ")");
}

void launch_overhead(const CalibrationData& d, Runner& run, Derivation& out) {
  std::int64_t fewest = -1;
  for (std::size_t i = 0; i < d.dispatch.rows.size(); ++i)
    if (fewest < 0 || param(d.dispatch, i, "blocks") < fewest) fewest = param(d.dispatch, i, "blocks");
  const std::vector<std::size_t> rows = rows_where(d.dispatch, "case", "dispatch");
  std::vector<std::size_t> chosen;
  for (std::size_t i : rows)
    if (param(d.dispatch, i, "blocks") == fewest) {
      chosen.push_back(i);
      run.cache.want(run.empty(param(d.dispatch, i, "bs"), fewest, {}));
    }
  if (chosen.empty()) throw sim::InputError(d.dispatch.path, "no rows of case 'dispatch'");
  run.cache.run_all();
  std::vector<double> overheads;
  std::string events, gpu;
  for (std::size_t i : chosen) {
    const double event_ns = d.dispatch.number(i, "event_median_ms") * 1e6;
    const double gpu_ns = run.cache.get(run.empty(param(d.dispatch, i, "bs"), fewest, {})).time_ms * 1e6;
    overheads.push_back(event_ns - gpu_ns);
    events += (events.empty() ? "" : ", ") + fixed(event_ns / 1e3, 2);
    gpu += (gpu.empty() ? "" : ", ") + fixed(gpu_ns / 1e3, 2);
  }
  std::sort(overheads.begin(), overheads.end());
  const std::size_t n = overheads.size();
  const double median = n % 2 ? overheads[n / 2] : (overheads[n / 2 - 1] + overheads[n / 2]) / 2;
  out.set("dispatch.launch_overhead_ns", std::max<std::int64_t>(0, std::llround(median / 10) * 10),
          cite(d.dispatch, chosen) + " (" + std::to_string(fewest) + " blocks): event medians " + events +
              " us less the model's kernel times " + gpu + " us (kernel_start_ns included), median " + us(median));
}

}  // namespace

void derive_dispatch(const CalibrationData& d, const std::string& base, Derivation& out) {
  const models::Arch arch = models::load_arch(base, out.overrides());
  block_interval(d, arch, out);
  Runner run{base, out.overrides(), {}};
  kernel_start(d, run, out);
  run.overrides = out.overrides();
  launch_overhead(d, run, out);
}

}  // namespace warpsim::analysis
