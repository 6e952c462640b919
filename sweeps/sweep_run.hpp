#pragma once
// One `warpsim sweep SPEC` from spec to result file: parse (every error before any file is
// created), select the shard, run with the journal, write the file, drop the journal.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweeps/point_result.hpp"
#include "sweeps/progress.hpp"
#include "sweeps/shard.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::sweeps {

struct SweepRunOptions {
  std::filesystem::path spec;
  std::filesystem::path output;
  int jobs = 0;
  std::optional<Shard> shard;
  ProgressMode progress = ProgressMode::Auto;
  std::chrono::seconds log_interval{30};
  std::string command_line;
  const std::atomic<bool>* stop = nullptr;
};

// EveryPointRefused / EveryPointFailed: the result file is written, but no point of the (whole)
// sweep succeeded (point_result.hpp, EveryPointFailed); a shard's own points are not judged.
enum class SweepOutcome { Complete, Interrupted, EveryPointRefused, EveryPointFailed };
SweepOutcome outcome_of(const std::optional<EveryPointFailed>& failed);

SweepOutcome run_sweep(const SweepRunOptions& options, const PointRunner& runner);

// The journal beside an output file, and the fingerprint that ties it to one sweep and shard
// simulated by one model (model_identity: the build and the presets).
std::filesystem::path journal_path(const std::filesystem::path& output, const std::string& suffix = "");
std::uint64_t sweep_fingerprint(const SweepSpec& spec, const std::string& shard_text);
// Default output: SPEC's stem in the working directory, with the shard in the name if any.
std::filesystem::path default_output(const std::filesystem::path& spec, const std::optional<Shard>& shard);
// Refuses, before anything runs, an output that cannot receive a new file (sim::check_output_file),
// that is one of the `inputs` (the spec, the shards to merge) or whose journal is not a file.
void check_output_path(const std::filesystem::path& output, const std::vector<std::filesystem::path>& inputs);

}  // namespace warpsim::sweeps
