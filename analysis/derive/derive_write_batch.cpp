// dram.write_batch, the one DRAM number hopper-h100.ini calibrates on a measured time: the writes
// a channel drains between two read/write turnarounds sets how much of the bus a write-back costs
// beyond its burst (banked_dram.cpp), and so the time of a DRAM-bound kernel that reads and writes.
// The kernel is hopper-h100's: readOffset at offset 0 and the largest n of offset.csv, which reads
// two arrays and writes one, each far larger than L2. The batch is the one whose simulated time
// is the measured one. That time falls as a + b / batch (the turnarounds' share of the bus), so a
// secant on 1 / batch finds it in a few runs, from the base preset's batch and half of it.
#include <algorithm>
#include <cmath>

#include "analysis/derive/derive_steps.hpp"
#include "analysis/validation/gpu_tables.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

// Close enough: the readOffset rows of the same traffic (aligned offsets 0, 32, 64 and 128 at
// n = 2^26) spread by 0.9% on the H100.
constexpr double kTolerance = 0.002;
constexpr int kMaxRuns = 6;
constexpr std::int64_t kLargestBatch = 1024;

std::size_t copy_row(const CsvTable& offset) {
  int lg = 0;
  for (const auto& r : offset.rows) lg = std::max(lg, std::stoi(split_params(r.at("params")).at("lg")));
  for (std::size_t i = 0; i < offset.rows.size(); ++i) {
    auto p = split_params(offset.rows[i].at("params"));
    if (offset.rows[i].at("kernel") == "readOffset" && p["lg"] == std::to_string(lg) && p["offset"] == "0") return i;
  }
  throw sim::InputError(offset.path, "no readOffset row at offset 0 and the largest n");
}

}  // namespace

void derive_write_batch(const CalibrationData& d, const std::string& base, Derivation& out) {
  const std::size_t row = copy_row(d.offset);
  const double measured = d.offset.number(row, "gpu__time_duration.sum");
  const std::int64_t start = models::load_arch(base, out.overrides()).dram.write_batch;
  RunCache cache;
  auto request = [&](std::int64_t batch) {
    models::RunRequest r = calibration_request(base, d.offset.rows[row]);
    r.arch_overrides = out.overrides();
    r.arch_overrides.push_back("dram.write_batch=" + std::to_string(batch));
    return r;
  };
  auto simulated = [&](std::int64_t batch) { return cache.get(request(batch)).time_ms * 1e6; };
  std::vector<std::int64_t> tried = {start, std::max<std::int64_t>(1, start / 2)};
  for (auto b : tried) cache.want(request(b));
  cache.run_all();
  std::int64_t best = start;
  auto better = [&](std::int64_t b) { return std::fabs(simulated(b) - measured) < std::fabs(simulated(best) - measured); };
  for (auto b : tried)
    if (better(b)) best = b;
  // Secant on x = 1 / batch through the last two runs.
  while (int(tried.size()) < kMaxRuns && std::fabs(simulated(best) - measured) > kTolerance * measured) {
    const std::int64_t b0 = tried[tried.size() - 2], b1 = tried.back();
    const double x0 = 1.0 / double(b0), x1 = 1.0 / double(b1), t0 = simulated(b0), t1 = simulated(b1);
    if (t0 == t1) break;
    const double x = x1 + (measured - t1) * (x1 - x0) / (t1 - t0);
    const std::int64_t next = x > 0 ? std::clamp<std::int64_t>(std::llround(1.0 / x), 1, kLargestBatch) : kLargestBatch;
    if (std::find(tried.begin(), tried.end(), next) != tried.end()) break;
    tried.push_back(next);
    if (better(next)) best = next;
  }
  std::string runs;
  for (auto b : tried) runs += (runs.empty() ? "" : ", ") + fixed(simulated(b) / 1e3, 1) + " us at " + std::to_string(b);
  out.set("dram.write_batch", best,
          cite(d.offset, row) + ": readOffset at offset 0 (" + fixed(d.offset.number(row, "dram__bytes_read.sum") / 1e6, 0) +
              " MB read, " + fixed(d.offset.number(row, "dram__bytes_write.sum") / 1e6, 0) + " MB written back) took " +
              fixed(measured / 1e3, 1) + " us; the model's (turnaround_ns " +
              std::to_string(models::load_arch(base, out.overrides()).dram.turnaround_ns) +
              "), batch by batch along a secant on 1 / batch: " + runs);
}

}  // namespace warpsim::analysis
