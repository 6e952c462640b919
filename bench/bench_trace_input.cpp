// Simulation rate and peak memory of real traces run from .traceg.xz and from .wtrace, by one or
// more warpsim binaries side by side (this build's and a base build's): for every trace of the
// corpus (the six programs of analysis/validation/data/h100-apps and the four shared traces),
// each binary converts the trace to its own .wtrace, then runs both forms `--runs` times,
// alternating binaries and forms; the rate is warp instructions per second of the run's own
// wall_s (start-up excluded), the median of the runs; the memory is the child's peak resident
// set (wait4), the largest of the runs. Shared traces are compressed here as the corpus was
// (xz -9).
//   bench_trace_input [--runs N] [--warpsim PATH]... [--arch ARCH]
#include <lzma.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;

namespace {

struct Run {
  bool ok = false;
  double rate = 0;      // warp instructions per second of wall_s
  double rss_mb = 0;    // peak resident set, MB
  std::string error;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? -1 : std::stod(json.substr(at + key.size() + 4));
}

// Runs `binary args...` with stdout to `out`; returns the exit code and the peak resident set.
int spawn(const std::vector<std::string>& args, const fs::path& out, double& rss_mb) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (out.string() + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) return -1;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  rss_mb = usage.ru_maxrss * 1024.0 / 1e6;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

Run run_trace(const std::string& warpsim, const std::string& arch, const fs::path& trace, const fs::path& tmp) {
  Run r;
  const fs::path out = tmp / "run.json";
  if (spawn({warpsim, "run", "--json", "--arch", arch, "--trace", trace.string()}, out, r.rss_mb) != 0) {
    r.error = slurp(out.string() + ".err");
    return r;
  }
  const std::string json = slurp(out);
  const double instructions = json_number(json, "warp_instructions"), wall = json_number(json, "wall_s");
  r.ok = instructions > 0 && wall > 0;
  r.rate = r.ok ? instructions / wall : 0;
  return r;
}

// A copy of the shared trace `src` whose kernels are xz -9 and whose kernelslist.g names them.
fs::path xz_copy(const fs::path& src, const fs::path& dst) {
  fs::create_directories(dst);
  std::ifstream in(src / "kernelslist.g");
  std::ofstream list(dst / "kernelslist.g");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("kernel", 0) == 0) {
      const std::string text = slurp(src / line);
      std::vector<std::uint8_t> packed(lzma_stream_buffer_bound(text.size()));
      std::size_t n = 0;
      if (lzma_easy_buffer_encode(9, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                  text.size(), packed.data(), &n, packed.size()) != LZMA_OK)
        throw std::runtime_error("xz failed on " + (src / line).string());
      line += ".xz";
      std::ofstream(dst / line, std::ios::binary).write(reinterpret_cast<const char*>(packed.data()), static_cast<std::streamsize>(n));
    }
    list << line << '\n';
  }
  return dst / "kernelslist.g";
}

std::uint64_t xz_bytes(const fs::path& kernelslist) {
  std::uint64_t total = 0;
  for (const auto& e : fs::directory_iterator(kernelslist.parent_path()))
    if (e.path().extension() == ".xz") total += e.file_size();
  return total;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  // CMake compiles with absolute source paths, so __FILE__ locates the source tree; the build's
  // warpsim sits beside this program's folder.
  const fs::path source = fs::path(__FILE__).parent_path().parent_path();
  std::vector<std::string> binaries;
  std::string arch = "hopper-h100";
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--warpsim" && i + 1 < argc) binaries.push_back(fs::absolute(argv[++i]).string());
    else if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--arch" && i + 1 < argc) arch = argv[++i];
    else {
      std::cerr << "usage: bench_trace_input [--runs N] [--warpsim PATH]... [--arch ARCH]\n";
      return 2;
    }
  }
  if (binaries.empty()) binaries.push_back((fs::canonical("/proc/self/exe").parent_path().parent_path() / "cli" / "warpsim").string());
  const fs::path tmp = fs::temp_directory_path() / ("warpsim-bench-trace-input-" + std::to_string(getpid()));
  fs::create_directories(tmp);

  std::vector<std::pair<std::string, fs::path>> traces;  // name, kernelslist.g of the .traceg.xz form
  for (const auto& e : fs::directory_iterator(source / "analysis/validation/data/h100-apps"))
    if (e.is_directory()) traces.emplace_back(e.path().filename().string(), e.path() / "kernelslist.g");
  for (const char* name : {"vectoradd-sm80-v5", "bfs-rodinia-sm80-v3", "btree-rodinia-sm90-v5", "ffma-sm90-v5"}) {
    const fs::path dir = source.parent_path() / "shared" / "traces" / name;
    if (fs::exists(dir / "kernelslist.g")) traces.emplace_back(name, xz_copy(dir, tmp / "xz" / name));
  }
  std::sort(traces.begin(), traces.end());

  std::printf("%-22s %-3s %10s %10s %10s %10s %7s %8s %8s\n", "trace", "bin", "xz bytes", "wtr bytes", "xz M/s", "wtr M/s",
              "xz/wtr", "xz MB", "wtr MB");
  for (std::size_t b = 0; b < binaries.size(); ++b) std::printf("# bin %zu: %s\n", b, binaries[b].c_str());
  int status = 0;
  for (const auto& [name, xz] : traces) {
    std::vector<fs::path> wtrace(binaries.size());
    std::vector<std::vector<double>> xz_rate(binaries.size()), wt_rate(binaries.size());
    std::vector<double> xz_rss(binaries.size()), wt_rss(binaries.size());
    for (std::size_t b = 0; b < binaries.size(); ++b) {
      wtrace[b] = tmp / (name + "." + std::to_string(b) + ".wtrace");
      double ignored = 0;
      if (spawn({binaries[b], "trace", "convert", xz.string(), wtrace[b].string()}, tmp / "convert.out", ignored) != 0) {
        std::fprintf(stderr, "%s: trace convert failed with %s\n", name.c_str(), binaries[b].c_str());
        status = 1;
      }
    }
    for (int r = 0; r < runs; ++r)
      for (std::size_t b = 0; b < binaries.size(); ++b) {
        const Run a = run_trace(binaries[b], arch, xz, tmp), w = run_trace(binaries[b], arch, wtrace[b], tmp);
        if (!a.ok || !w.ok) {
          std::fprintf(stderr, "%s with %s failed: %s%s\n", name.c_str(), binaries[b].c_str(), a.error.c_str(), w.error.c_str());
          status = 1;
          continue;
        }
        xz_rate[b].push_back(a.rate);
        wt_rate[b].push_back(w.rate);
        xz_rss[b] = std::max(xz_rss[b], a.rss_mb);
        wt_rss[b] = std::max(wt_rss[b], w.rss_mb);
      }
    for (std::size_t b = 0; b < binaries.size(); ++b) {
      const double x = median(xz_rate[b]), w = median(wt_rate[b]);
      const std::uint64_t wt_bytes = fs::exists(wtrace[b]) ? fs::file_size(wtrace[b]) : 0;
      std::printf("%-22s %-3zu %10llu %10llu %10.3f %10.3f %7.2f %8.1f %8.1f\n", name.c_str(), b,
                  static_cast<unsigned long long>(xz_bytes(xz)), static_cast<unsigned long long>(wt_bytes), x / 1e6, w / 1e6,
                  w > 0 ? x / w : 0, xz_rss[b], wt_rss[b]);
    }
    std::fflush(stdout);
  }
  fs::remove_all(tmp);
  return status;
}
