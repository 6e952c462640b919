#include "sim/data_dir.hpp"

#include <cstdlib>
#include <unistd.h>

namespace warpsim::sim {

std::filesystem::path data_dir(const char* environment_variable, const char* installed_subdir,
                               const char* source_dir) {
  if (const char* env = std::getenv(environment_variable); env && *env) return env;
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    const std::filesystem::path installed =
        std::filesystem::path(self).parent_path().parent_path() / "share" / "warpsim" / installed_subdir;
    if (std::filesystem::is_directory(installed)) return installed;
  }
  return source_dir;
}

}  // namespace warpsim::sim
