#pragma once
// The sweep result file (CONTRACT.md, layout in docs/sweeps.md): one 1-D dataset per
// column along dimension `point`, /grid N-D views, root attributes, /config. The file is
// written under a temporary name, synced and renamed, so the visible file is always complete.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweeps/point_result.hpp"
#include "sweeps/points.hpp"
#include "sweeps/shard.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::sweeps {

inline constexpr const char* kResultSchema = "warpsim-sweep/1";

struct ResultFileInfo {
  std::string command_line;
  std::string created_utc;  // now, if empty
  std::optional<Shard> shard;  // a shard file holds only its points and no /grid
};

// `results` sorted by index: every point of the sweep, or every point of `info.shard`.
void write_result_file(const std::filesystem::path& out, const SweepSpec& spec, const std::vector<Point>& points,
                       const std::vector<PointResult>& results, const ResultFileInfo& info);

// What decides a sweep's results besides its spec: the simulator build (version and commit) and
// the text of every preset the spec uses. Points simulated under two identities must not end up
// in one result (a resumed journal, merged shards).
std::string model_identity(const SweepSpec& spec);

// What merge needs back from a file: the resolved spec, the shard, the model, the results.
struct ResultFileContents {
  std::string config;  // /config text
  std::string shard;   // root attribute "shard" ("" for a whole sweep)
  std::string model;   // model_identity() of the build and presets that wrote it
  std::vector<PointResult> results;
};
ResultFileContents read_result_file(const std::filesystem::path& file);

std::string utc_timestamp();

}  // namespace warpsim::sweeps
