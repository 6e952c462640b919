#include "analysis/validation/sampled_vs_full.hpp"

#include <cmath>
#include <ctime>
#include <filesystem>

#include "analysis/validation/reference_data.hpp"

namespace warpsim::analysis {
namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

models::RunResult timed(const models::RunRequest& request, double& cpu) {
  const double start = cpu_seconds();
  models::RunResult r = models::simulate(request);
  cpu = cpu_seconds() - start;
  return r;
}

namespace fs = std::filesystem;

models::RunRequest kernel(const std::string& arch, const std::string& name, std::vector<std::string> params) {
  models::RunRequest r;
  r.arch = arch;
  r.kernel = name;
  r.kernel_params = std::move(params);
  return r;
}

models::RunRequest trace(const fs::path& path, bool ncu) {
  models::RunRequest r;
  r.arch = "hopper-h100";
  r.trace = path.string();
  r.ncu = ncu;
  return r;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void compare_metrics(const std::vector<std::pair<std::string, double>>& full,
                     const std::vector<std::pair<std::string, double>>& sampled, const std::string& prefix,
                     std::vector<std::string>& out) {
  for (std::size_t i = 0; i < full.size() && i < sampled.size(); ++i)
    if (models::exact_when_sampled(full[i].first) && !same(full[i].second, sampled[i].second))
      out.push_back(prefix + full[i].first);
}

}  // namespace

double SampledVersusFull::time_error_pct() const {
  return 100.0 * (double(sampled.cycles) / double(full.cycles) - 1.0);
}

std::vector<std::string> SampledVersusFull::exact_mismatches() const {
  std::vector<std::string> out;
  compare_metrics(full.metrics, sampled.metrics, "", out);
  if (full.kernels.size() != sampled.kernels.size()) {
    out.push_back("launch count");
    return out;
  }
  for (std::size_t k = 0; k < full.kernels.size(); ++k)
    compare_metrics(full.kernels[k].metrics, sampled.kernels[k].metrics,
                    "launch " + std::to_string(full.kernels[k].launch) + " ", out);
  return out;
}

SampledVersusFull compare_sampled(std::string label, models::RunRequest request) {
  SampledVersusFull c;
  c.label = std::move(label);
  request.sample = false;
  c.full = timed(request, c.full_cpu_s);
  request.sample = true;
  c.sampled = timed(request, c.sampled_cpu_s);
  return c;
}

std::vector<models::RunRequest> library_table(const std::string& arch, int scale) {
  const bool hopper = arch == "hopper-h100";
  // The H100 holds ten times the blocks of the M2070 or the K20X at once, and its 50 MB L2
  // takes ~10 waves to warm: four times the elements.
  auto n = [&](long base) { return std::to_string((hopper ? 4 * base : base) / scale); };
  auto count = [&](long per_sm) { return std::to_string((hopper ? 132 : 14) * per_sm / scale); };
  // A transpose's blocks grow with the square of the width: halved for a test, quartered at 1/8.
  const std::string width = std::to_string((hopper ? 8192 : 4096) / (scale >= 8 ? 4 : scale > 1 ? 2 : 1));
  std::vector<models::RunRequest> rows = {
      kernel(arch, "readOffset", {"n=" + n(1L << 22)}),
      kernel(arch, "readOffset", {"n=" + n(1L << 22), "offset=11"}),
      kernel(arch, "readOffsetNC", {"n=" + n(1L << 22), "offset=11"}),
      kernel(arch, "writeOffset", {"n=" + n(1L << 22), "offset=1"}),
      kernel(arch, "readOffsetUnroll", {"n=" + n(1L << 23), "unroll=4"}),
      kernel(arch, "stridedRead", {"n=" + n(1L << 22), "stride=1"}),
      kernel(arch, "stridedRead", {"n=" + n(1L << 24), "stride=8"}),
      kernel(arch, "testInnerStruct", {"n=" + n(1L << 21)}),
      kernel(arch, "testInnerArray", {"n=" + n(1L << 21)}),
      kernel(arch, "transposeNaive", {"width=" + width}),
      kernel(arch, "transposeShared", {"width=" + width, "pad=0"}),
      kernel(arch, "transposeShared", {"width=" + width, "pad=1"}),
      kernel(arch, "fmaChain", {"grid=" + count(100), "iters=32", "ilp=4"}),
      kernel(arch, "chase", {"steps=2000"}),
      kernel(arch, "emptyKernel", {"grid=" + count(1000)}),
      kernel(arch, "persistLoop", {"grid=" + count(256), "iters=16"}),
      kernel(arch, "persistKernel", {"data_bytes=" + n(1L << 24), "persist_bytes=4M"}),
  };
  return rows;
}

std::vector<models::RunRequest> trace_table() {
  std::vector<models::RunRequest> rows;
  const fs::path apps = validation_data_dir() / "h100-apps";
  for (const char* app : {"2dconv", "syrk", "fdtd2d", "backprop", "gaussian", "matrixMul"})
    for (bool ncu : {false, true}) rows.push_back(trace(apps / app / "kernelslist.g", ncu));
  // ../shared/traces beside the source tree (the validation data is three levels down in it).
  const fs::path shared = fs::path(WARPSIM_VALIDATION_DATA_DIR).parent_path().parent_path().parent_path() / ".." /
                          "shared" / "traces";
  for (const char* t : {"vectoradd-sm80-v5", "bfs-rodinia-sm80-v3", "btree-rodinia-sm90-v5", "ffma-sm90-v5"})
    if (fs::exists(shared / t / "kernelslist.g")) rows.push_back(trace(shared / t / "kernelslist.g", false));
  return rows;
}

std::string table_label(const models::RunRequest& r) {
  std::string s = r.arch + " ";
  if (r.kernel.empty()) return s + fs::path(r.trace).parent_path().filename().string() + (r.ncu ? " --ncu" : "");
  s += r.kernel;
  for (const auto& p : r.kernel_params) s += " " + p;
  return s;
}

}  // namespace warpsim::analysis
