// Memory stays bounded by the warps in flight, whatever a trace's size (issue 28): a run of a
// generated .traceg.xz of hundreds of MB of text stays under 100 MB resident, as does every
// trace of the corpus. Measured as the child's peak resident set (its VmHWM), so that nothing
// else the test process holds counts.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "analysis/validation/reference_data.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/synthetic_traceg.hpp"

extern char** environ;

namespace fs = std::filesystem;
using namespace warpsim::test;

namespace {

constexpr std::uint64_t kLimitBytes = 100'000'000;  // 100 MB

struct MeasuredRun {
  int exit_code = -1;
  long max_rss_kib = 0;
  std::string out;
};

// VmHWM of process `pid` in KiB (0 once it has exited).
long peak_resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return 0;
}

// Runs `warpsim run --json --arch hopper-h100 --trace TRACE` and measures its peak resident set.
MeasuredRun run_measured(const std::string& trace, const std::string& dir) {
  const std::string out_path = dir + "/run.json";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {WARPSIM_BINARY, "run", "--json", "--arch", "hopper-h100", "--trace", trace};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  MeasuredRun r;
  REQUIRE(posix_spawn(&pid, WARPSIM_BINARY, &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  // The child's own peak (VmHWM of its address space), polled until it exits: wait4's ru_maxrss
  // would not do, since Linux carries the spawning process's peak over exec into it, so the
  // test process's own size (large late in the suite) would count.
  int status = 0;
  for (;;) {
    r.max_rss_kib = std::max(r.max_rss_kib, peak_resident_kib(pid));
    const pid_t done = waitpid(pid, &status, WNOHANG);
    REQUIRE(done >= 0);
    if (done == pid) break;
    usleep(2000);
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(out_path);
  std::stringstream s;
  s << in.rdbuf();
  r.out = s.str();
  return r;
}

std::uint64_t warp_instructions(const std::string& json) {
  const std::string key = "\"warp_instructions\": ";
  const auto at = json.find(key);
  return at == std::string::npos ? 0 : std::stoull(json.substr(at + key.size()));
}

}  // namespace

TEST_CASE("a run of a generated .traceg.xz of hundreds of MB of text stays under 100 MB resident", "[traces][memory][slow]") {
  // WARPSIM_SYNTHETIC_TRACE_MB sets the size (1100 for the 1 GB measurement of issue 28).
  const char* env = std::getenv("WARPSIM_SYNTHETIC_TRACE_MB");
  const std::uint64_t megabytes = env ? std::strtoull(env, nullptr, 10) : 300;
  const std::string dir = temp_dir("synthetic-trace");
  const SyntheticTrace trace = write_synthetic_traceg(dir, megabytes * 1'000'000, 3);
  INFO(trace.text_bytes << " bytes of text, " << trace.compressed_bytes << " as .traceg.xz");
  REQUIRE(trace.text_bytes >= megabytes * 1'000'000 * 9 / 10);
  const MeasuredRun run = run_measured(trace.kernelslist, dir);
  REQUIRE(run.exit_code == 0);
  CHECK(warp_instructions(run.out) == trace.instructions);
  WARN("peak resident " << run.max_rss_kib << " KiB for " << trace.text_bytes << " bytes of text");
  CHECK(static_cast<std::uint64_t>(run.max_rss_kib) * 1024 <= kLimitBytes);
  fs::remove_all(dir);
}

TEST_CASE("every corpus program runs from its .traceg.xz under 100 MB resident", "[traces][memory][slow]") {
  const std::string dir = temp_dir("corpus-memory");
  for (const auto& e : fs::directory_iterator(warpsim::analysis::validation_data_dir() / "h100-apps")) {
    if (!e.is_directory()) continue;
    INFO(e.path().filename().string());
    const MeasuredRun run = run_measured((e.path() / "kernelslist.g").string(), dir);
    REQUIRE(run.exit_code == 0);
    CHECK(static_cast<std::uint64_t>(run.max_rss_kib) * 1024 <= kLimitBytes);
  }
  fs::remove_all(dir);
}
