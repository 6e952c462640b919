// Sampled simulation against full simulation (docs/sampling.md): every library kernel at
// chip-filling sizes on fermi-m2070, kepler-k20x and hopper-h100, and the corpus traces (the
// H100 applications as the application runs them and as ncu measures them, and the shared
// Accel-Sim traces); then readOffset at n = 2^26 and 2^28 on hopper-h100, full and sampled side
// by side. Each row: both runs' cycles, the time error, the error sampling states, the fraction
// simulated in detail, the speed-up in host CPU time, and whether every count sampling keeps
// exact matched. Goals: median |time error| <= 1%, maximum <= 3%; >= 10x at 2^26, >= 30x at 2^28.
//   bench_sampling [--table | --speed] [--quick] [--scale N] [--arch ARCH]
//   (--quick: a few rows, small sizes; --scale: the table's sizes divided by N, as the test runs
//   them; --arch: one preset's rows only, without the traces)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/validation/sampled_vs_full.hpp"

namespace {

using warpsim::models::RunRequest;

struct Case {
  std::string label;
  RunRequest request;
};

std::vector<Case> table(bool quick, int scale, const std::string& only_arch) {
  std::vector<Case> cases;
  for (const char* arch : {"fermi-m2070", "kepler-k20x", "hopper-h100"})
    if (only_arch.empty() || only_arch == arch)
      for (auto& r : warpsim::analysis::library_table(arch, quick ? 8 : scale))
        cases.push_back({warpsim::analysis::table_label(r), r});
  if (only_arch.empty())
    for (auto& r : warpsim::analysis::trace_table()) cases.push_back({warpsim::analysis::table_label(r), r});
  if (quick) cases.resize(std::min<std::size_t>(cases.size(), 6));
  return cases;
}

void print_table(bool quick, int scale, const std::string& only_arch) {
  std::printf("| case | full cycles | sampled cycles | time error | stated error | detail | full cpu s | speed-up | exact counts |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  std::vector<double> all, sampled;
  std::size_t within_stated = 0, mismatched = 0;
  for (const Case& c : table(quick, scale, only_arch)) {
    const auto r = warpsim::analysis::compare_sampled(c.label, c.request);
    const double e = r.time_error_pct();
    const auto bad = r.exact_mismatches();
    all.push_back(std::fabs(e));
    if (r.sampled.sampling.sampled) {
      sampled.push_back(std::fabs(e));
      within_stated += std::fabs(e) <= r.sampled.sampling.time_error_pct;
    }
    mismatched += !bad.empty();
    std::string exact = bad.empty() ? "all equal" : "DIFFER: " + bad.front();
    std::printf("| %s | %llu | %llu | %+.2f%% | %s | %.3f | %.2f | %.1fx | %s |\n", c.label.c_str(),
                static_cast<unsigned long long>(r.full.cycles), static_cast<unsigned long long>(r.sampled.cycles), e,
                r.sampled.sampling.sampled ? (std::to_string(r.sampled.sampling.time_error_pct).substr(0, 4) + "%").c_str()
                                           : ("full: " + r.sampled.sampling.fallback).c_str(),
                r.sampled.sampling.detail_fraction, r.full_cpu_s, r.full_cpu_s / r.sampled_cpu_s, exact.c_str());
    std::fflush(stdout);
  }
  auto median = [](std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  auto max = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
  std::printf("\nall %zu rows: median |time error| %.2f%%, maximum %.2f%%\n", all.size(), median(all), max(all));
  std::printf("the %zu sampled rows: median |time error| %.2f%%, maximum %.2f%%; within the stated error: %zu\n",
              sampled.size(), median(sampled), max(sampled), within_stated);
  std::printf("rows whose exact counts differ: %zu\n", mismatched);
}

void print_speed(bool quick) {
  std::printf("\n| readOffset, hopper-h100 | full cycles | sampled cycles | time error | full cpu s | sampled cpu s | speed-up |\n"
              "|---|---|---|---|---|---|---|\n");
  for (const char* n : quick ? std::vector<const char*>{"n=4194304"} : std::vector<const char*>{"n=67108864", "n=268435456"}) {
    RunRequest request;
    request.arch = "hopper-h100";
    request.kernel = "readOffset";
    request.kernel_params = {n};
    const auto r = warpsim::analysis::compare_sampled(n, request);
    std::printf("| %s | %llu | %llu | %+.2f%% | %.2f | %.2f | %.1fx |\n", n,
                static_cast<unsigned long long>(r.full.cycles), static_cast<unsigned long long>(r.sampled.cycles),
                r.time_error_pct(), r.full_cpu_s, r.sampled_cpu_s, r.full_cpu_s / r.sampled_cpu_s);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, table_only = false, speed_only = false;
  int scale = 1;
  std::string arch;
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    table_only = table_only || std::strcmp(argv[i], "--table") == 0;
    speed_only = speed_only || std::strcmp(argv[i], "--speed") == 0;
    if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc) scale = std::max(1, std::atoi(argv[++i]));
    if (std::strcmp(argv[i], "--arch") == 0 && i + 1 < argc) arch = argv[++i];
  }
  if (!speed_only) print_table(quick, scale, arch);
  if (!table_only) print_speed(quick);
  return 0;
}
