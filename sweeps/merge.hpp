#pragma once
// `warpsim sweep merge OUT SHARD...`: shard files (from --shard, a Slurm array or by hand)
// into one file identical to a single-process run, apart from wall_s, created_utc and
// command_line. The points are rebuilt from the /config the shards carry, so a merge needs
// nothing but the shard files, and refuses shards of different sweeps or an incomplete set.
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::sweeps {

void merge_result_files(const std::filesystem::path& out, const std::vector<std::filesystem::path>& shards,
                        const std::string& command_line);

}  // namespace warpsim::sweeps
