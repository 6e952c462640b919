// Decode speed of the trace readers, in warp instructions per second: Accel-Sim text (.traceg),
// xz-compressed text (.traceg.xz, made here with `xz -k`) and the native .wtrace, on the shared
// traces. Also prints each format's size on disk. Usage: bench_decode [SHARED_TRACES_DIR]
// (default ../shared/traces relative to the source tree), or bench_decode --trace PATH... to
// time the given traces as they are (any form run --trace reads: a corpus program's kernelslist.g
// of .traceg.xz files, a .wtrace).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "traces/open_workload.hpp"
#include "traces/wtrace/wtrace_writer.hpp"

namespace fs = std::filesystem;
using namespace warpsim::traces;

namespace {

// Reads every instruction of every launch; returns how many.
std::uint64_t decode_all(const std::string& path) {
  Workload w = open_workload(path);
  std::uint64_t n = 0;
  Instruction inst;
  for (const auto& step : w.steps) {
    if (step.kind != WorkloadStep::Kind::Launch) continue;
    auto k = step.launch.open();
    for_each_block(*k, [&](std::uint64_t id) {
      for (auto& warp : k->open_block(id))
        while (warp->next(inst)) ++n;
    });
  }
  return n;
}

struct Timing {
  std::uint64_t instructions = 0;
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // this process's CPU time: the fair number on a shared machine
};

// Repeats the decode until at least half a CPU second has passed, for a stable rate.
Timing time_decode(const std::string& path) {
  using clock = std::chrono::steady_clock;
  Timing t;
  auto start = clock::now();
  std::clock_t cpu_start = std::clock();
  int runs = 0;
  do {
    t.instructions += decode_all(path);
    ++runs;
    t.seconds = std::chrono::duration<double>(clock::now() - start).count();
    t.cpu_seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  } while (t.cpu_seconds < 0.5 || runs < 2);
  return t;
}

std::uint64_t bytes_of_kernels(const fs::path& dir, const std::string& suffix) {
  std::uint64_t total = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) total += e.file_size();
  }
  return total;
}

// A copy of `src` whose kernels are .traceg.xz (xz -k, default level) and whose kernelslist.g
// names them.
fs::path make_xz_copy(const fs::path& src, const fs::path& dst) {
  fs::create_directories(dst);
  std::ifstream in(src / "kernelslist.g");
  std::ofstream out(dst / "kernelslist.g");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("kernel", 0) == 0) {
      fs::copy_file(src / line, dst / line, fs::copy_options::overwrite_existing);
      std::string cmd = "xz -k -f -T1 '" + (dst / line).string() + "'";
      if (std::system(cmd.c_str()) != 0) throw std::runtime_error("xz failed: " + cmd);
      fs::remove(dst / line);
      line += ".xz";
    }
    out << line << '\n';
  }
  return dst / "kernelslist.g";
}

void report(const std::string& trace, const std::string& format, std::uint64_t bytes, const Timing& t) {
  std::printf("%-24s %-11s %12llu %10llu %14.1f %15.1f\n", trace.c_str(), format.c_str(), static_cast<unsigned long long>(bytes),
              static_cast<unsigned long long>(t.instructions), t.instructions / t.cpu_seconds / 1e6, t.instructions / t.seconds / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--trace") {
    std::printf("%-60s %10s %14s %15s\n", "trace", "instr", "Minstr/cpu-s", "Minstr/wall-s");
    try {
      for (int i = 2; i < argc; ++i) {
        const Timing t = time_decode(argv[i]);
        std::printf("%-60s %10llu %14.2f %15.2f\n", argv[i], static_cast<unsigned long long>(t.instructions),
                    t.instructions / t.cpu_seconds / 1e6, t.instructions / t.seconds / 1e6);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_decode: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  // CMake compiles with absolute source paths, so __FILE__ locates the source tree.
  fs::path shared = argc > 1 ? fs::path(argv[1]) : fs::path(__FILE__).parent_path().parent_path().parent_path() / "shared" / "traces";
  fs::path tmp = fs::temp_directory_path() / ("warpsim-bench-decode-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  std::printf("%-24s %-11s %12s %10s %14s %15s\n", "trace", "format", "bytes", "instr", "Minstr/cpu-s", "Minstr/wall-s");
  try {
    for (const char* name : {"vectoradd-sm80-v5", "bfs-rodinia-sm80-v3", "btree-rodinia-sm90-v5", "ffma-sm90-v5"}) {
      fs::path dir = shared / name;
      if (!fs::exists(dir / "kernelslist.g")) {
        std::fprintf(stderr, "skipping %s: not found\n", dir.c_str());
        continue;
      }
      report(name, "traceg", bytes_of_kernels(dir, ".traceg"), time_decode((dir / "kernelslist.g").string()));
      fs::path xz = make_xz_copy(dir, tmp / name);
      report(name, "traceg.xz", bytes_of_kernels(tmp / name, ".traceg.xz"), time_decode(xz.string()));
      fs::path wt = tmp / (std::string(name) + ".wtrace");
      wtrace::write_wtrace(open_workload((dir / "kernelslist.g").string()), wt.string());
      report(name, "wtrace", fs::file_size(wt), time_decode(wt.string()));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_decode: %s\n", e.what());
    fs::remove_all(tmp);
    return 1;
  }
  fs::remove_all(tmp);
  return 0;
}
