#include "tests/test_support.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace warpsim::test {
namespace fs = std::filesystem;

std::string temp_dir(const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("warpsim-test-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

CommandResult run_warpsim(const std::string& args) { return run_warpsim_in(".", args); }

CommandResult run_warpsim_in(const std::string& cwd, const std::string& args) {
  std::string dir = temp_dir("cmd");
  std::string out = dir + "/out", err = dir + "/err";
  std::string cmd = "cd '" + cwd + "' && " + std::string(WARPSIM_BINARY) + " " + args + " >" + out + " 2>" + err;
  int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove_all(dir);
  return r;
}

std::string shared_path(const std::string& relative) { return std::string(WARPSIM_SHARED_DIR) + "/" + relative; }

}  // namespace warpsim::test
