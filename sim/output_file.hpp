#pragma once
// Files the program writes whole (sweep results, merged results, .wtrace traces) are written under
// a temporary name next to the destination and renamed over it, so a reader never sees half of
// one. A rename replaces whatever the name held, so the destination is checked first: a device,
// pipe or directory given by mistake (`-o /dev/null`) must be refused, not replaced by a file.
#include <filesystem>
#include <string>

namespace warpsim::sim {

// Throws InputError (`origin`: the option or command that named it) unless `path` can receive a
// new file: a non-empty name whose directory exists, naming nothing yet or a regular file
// (through symbolic links).
void check_output_file(const std::filesystem::path& path, const std::string& origin);

// Where to rename the finished file: the file a symbolic link points to (the link stays a link,
// as a user who links results into place expects), else `path` itself.
std::filesystem::path output_target(const std::filesystem::path& path);

}  // namespace warpsim::sim
