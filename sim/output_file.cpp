// See output_file.hpp.
#include "sim/output_file.hpp"

#include "sim/errors.hpp"

namespace warpsim::sim {

namespace fs = std::filesystem;

void check_output_file(const fs::path& path, const std::string& origin) {
  if (path.empty()) throw InputError(origin, "the output file name is empty");
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows symbolic links
  if (fs::is_directory(status)) throw InputError(origin, path.string() + " is a directory; give a file name");
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(origin, path.string() + " exists and is not a regular file (a device, pipe or socket); give a file name");
  const fs::path target = output_target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) throw InputError(origin, "the directory " + dir.string() + " does not exist");
}

fs::path output_target(const fs::path& path) {
  // Link by link, so that a link to a file not written yet (the first run) resolves too.
  fs::path target = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target;
}

}  // namespace warpsim::sim
