#pragma once
// `warpsim sweep merge OUT SHARD...`: shard files (from --shard, a Slurm array or by hand)
// into one file identical to a single-process run, apart from wall_s, created_utc and
// command_line. The points are rebuilt from the /config the shards carry, so a merge needs
// nothing but the shard files, and refuses shards of different sweeps or an incomplete set.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweeps/point_result.hpp"

namespace warpsim::sweeps {

// Returns what every_point_failed says of the merged sweep (nullopt: some point succeeded).
std::optional<EveryPointFailed> merge_result_files(const std::filesystem::path& out,
                                                   const std::vector<std::filesystem::path>& shards,
                                                   const std::string& command_line);

}  // namespace warpsim::sweeps
