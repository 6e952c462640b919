#include "sweeps/merge.hpp"

#include <algorithm>
#include <map>

#include "sim/errors.hpp"
#include "sweeps/points.hpp"
#include "sweeps/refine_order.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/spec.hpp"
#include "sweeps/sweep_run.hpp"

namespace warpsim::sweeps {

MergeOutcome merge_result_files(const std::filesystem::path& out, const std::vector<std::filesystem::path>& shards,
                                const std::string& command_line, const PointRunner& runner, DriverOptions full) {
  if (shards.empty()) throw sim::InputError("sweep merge", "no shard files given");
  std::string config, model;
  std::map<std::size_t, std::pair<PointResult, std::string>> by_index;
  for (const auto& path : shards) {
    ResultFileContents c = read_result_file(path);
    if (config.empty()) {
      config = c.config;
      model = c.model;
    } else if (c.config != config) {
      throw sim::InputError(path.string(), "belongs to a different sweep than " + shards.front().string() +
                                               " (their /config differ)");
    } else if (c.model != model) {
      throw sim::InputError(path.string(), "was simulated by another warpsim build or with other presets than " +
                                               shards.front().string() +
                                               " (warpsim_version, git_commit or a /config preset differ): their "
                                               "results are not comparable; rerun one of them with the other's build");
    }
    for (auto& r : c.results) {
      auto [it, fresh] = by_index.emplace(r.index, std::make_pair(r, path.string()));
      if (!fresh)
        throw sim::InputError(path.string(), "point " + std::to_string(r.index) + " is also in " + it->second.second +
                                                 " (the same shard given twice?)");
    }
  }
  SweepSpec spec = parse_spec_text(config, shards.front().string() + ":/config");
  std::vector<Point> points = enumerate_points(spec);
  std::vector<std::size_t> missing;
  for (const auto& p : points)
    if (!by_index.count(p.index)) missing.push_back(p.index);
  if (!missing.empty()) {
    std::string sample;
    for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 8); ++i)
      sample += (i ? ", " : "") + std::to_string(missing[i]);
    throw sim::InputError("sweep merge", std::to_string(missing.size()) + " of " + std::to_string(points.size()) +
                                             " points are in none of the shards (e.g. " + sample +
                                             "); is a shard missing or unfinished?");
  }
  std::vector<PointResult> results;
  results.reserve(points.size());
  for (auto& [index, entry] : by_index) {
    if (index >= points.size()) throw sim::InputError(entry.second, "point " + std::to_string(index) + " is outside the sweep");
    results.push_back(std::move(entry.first));
  }
  MergeOutcome outcome;
  if (!unordered_points(points, results).empty()) {
    if (model_identity(spec) != model)
      throw sim::InputError(shards.front().string(), "holds sampled points that must be simulated again in full to be "
                                                     "put in order, and this warpsim is not the build (or the presets) "
                                                     "that simulated the shards; merge with that build");
    full.journal = journal_path(out, ".full");
    full.sweep_fingerprint = sweep_fingerprint(spec, "merged, refined in full");
    outcome.interrupted = refine_order(points, results, runner, full).interrupted;
    if (outcome.interrupted) return outcome;
  }
  write_result_file(out, spec, points, results, ResultFileInfo{command_line, {}, std::nullopt});
  std::filesystem::remove(journal_path(out, ".full"));
  outcome.failed = every_point_failed(results);
  return outcome;
}

}  // namespace warpsim::sweeps
