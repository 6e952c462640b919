// kernels.cu's transposes on the H200 (h200/partial_writes.csv, tools/gpu-probes/partial_writes.cu,
// Nsight Compute with its caches flushed): transposeNaive stores one float of a line a thread, so
// every L2 request carries one sector, and the slices' input from the crossbar, which takes a
// request at a time whatever its sectors (l2.request_cycles, h200/partial_writes_l2.csv), bounds
// it; transposeShared stores whole lines. The presets leave that stage off for now (hopper-h100.ini
// says why): these tests run hopper-h200 with the measured 1.23 cycles, and without it.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/validation/reference_data.hpp"
#include "models/simulate.hpp"

using namespace warpsim;

namespace {

// The L2 cycles a request holds its slice's input, as the H200 measured them where transposeNaive
// keeps that input busiest (widths 4,096 and 8,192, both kernels): xbar2lts cycles over requests.
std::string measured_request_cycles() {
  const analysis::CsvTable t = analysis::read_csv(analysis::validation_data_dir() / "h200" / "partial_writes_l2.csv");
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string& params = t.rows[i].at("params");
    if (params.rfind("width=4096", 0) != 0 && params.rfind("width=8192", 0) != 0) continue;
    sum += t.number(i, "lts__xbar2lts_cycles_active.sum") / t.number(i, "lts__t_requests.sum");
    ++n;
  }
  REQUIRE(n == 4);
  return "l2.request_cycles=" + std::to_string(sum / n);
}

// The launch of a row: its params ("width=W" or "width=W;pad=0") as the kernel's.
double simulated_ns(const std::string& kernel, const std::string& params, const std::vector<std::string>& set) {
  models::RunRequest r;
  r.arch = "hopper-h200";
  r.arch_overrides = set;
  r.kernel = kernel;
  for (std::size_t at = 0; at <= params.size();) {
    const std::size_t end = std::min(params.find(';', at), params.size());
    r.kernel_params.push_back(params.substr(at, end - at));
    at = end + 1;
  }
  r.ncu = true;
  return models::simulate(r).time_ms * 1e6;
}

}  // namespace

TEST_CASE("validation: the transposes at widths 1,024-4,096 on hopper-h200 with the request input within 10% of the H200",
          "[validation][slow]") {
  const analysis::CsvTable t = analysis::read_csv(analysis::validation_data_dir() / "h200" / "partial_writes.csv");
  REQUIRE(t.rows.size() == 8);
  const std::string request_cycles = measured_request_cycles();
  int checked = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string params = t.rows[i].at("params");
    if (params.rfind("width=8192", 0) == 0) continue;  // ~10 s to simulate: the smaller three say the same
    const std::string kernel = t.rows[i].at("case");
    const double measured = t.number(i, "gpu__time_duration.sum");
    const double simulated = simulated_ns(kernel, params, {request_cycles});
    INFO(kernel << " " << params << ": H200 " << measured << " ns, hopper-h200 " << simulated);
    // The counters tables' tolerance for a launch's time (h200-counters).
    CHECK(simulated == Approx(measured).epsilon(0.10));
    ++checked;
  }
  CHECK(checked == 6);
}

TEST_CASE("validation: transposeNaive on hopper-h200 needs the slices' request input", "[validation][slow]") {
  // Without l2.request_cycles a one-sector request takes the slice's port for its sector alone,
  // and transposeNaive at 4,096 comes out less than half the H200's time (123 us against 272).
  const analysis::CsvTable t = analysis::read_csv(analysis::validation_data_dir() / "h200" / "partial_writes.csv");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (t.rows[i].at("case") != "transposeNaive" || t.rows[i].at("params") != "width=4096") continue;
    const double measured = t.number(i, "gpu__time_duration.sum");
    CHECK(simulated_ns("transposeNaive", "width=4096", {"l2.request_cycles=0"}) < 0.6 * measured);
    return;
  }
  FAIL("h200/partial_writes.csv has no transposeNaive width=4096 row");
}
