#pragma once
// `warpsim sweep merge OUT SHARD...`: shard files (from --shard, a Slurm array or by hand)
// into one file identical to a single-process run, apart from wall_s, created_utc and
// command_line. The points are rebuilt from the /config the shards carry, so a merge needs
// nothing but the shard files, and refuses shards of different sweeps or an incomplete set.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweeps/driver.hpp"
#include "sweeps/point_result.hpp"

namespace warpsim::sweeps {

// Sampled points that the sampling cannot order against another shard's are simulated again in
// full with `runner` (refine_order.hpp; `full` gives its threads, journal and stop flag), which
// needs the build that simulated the shards.
struct MergeOutcome {
  std::optional<EveryPointFailed> failed;  // what every_point_failed says (nullopt: some point succeeded)
  bool interrupted = false;                // stopped while simulating points again; nothing written
};
MergeOutcome merge_result_files(const std::filesystem::path& out, const std::vector<std::filesystem::path>& shards,
                                const std::string& command_line, const PointRunner& runner, DriverOptions full);

}  // namespace warpsim::sweeps
