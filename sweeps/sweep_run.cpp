#include "sweeps/sweep_run.hpp"

#include <cstdio>

#include "models/simulate.hpp"
#include "sim/errors.hpp"
#include "sim/output_file.hpp"
#include "sweeps/driver.hpp"
#include "sweeps/points.hpp"
#include "sweeps/refine_order.hpp"
#include "sweeps/result_file.hpp"
#include "sweeps/result_record.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::sweeps {
namespace fs = std::filesystem;

fs::path journal_path(const fs::path& output, const std::string& suffix) {
  fs::path j = output;
  j += ".journal" + suffix;
  return j;
}

std::uint64_t sweep_fingerprint(const SweepSpec& spec, const std::string& shard_text) {
  std::string key = resolved_spec_text(spec) + "\nshard=" + shard_text + "\nmetrics=";
  for (const auto& m : models::metric_names()) key += m + ",";
  for (const auto& m : models::text_metric_names()) key += m + ",";
  return fingerprint(key + "\nmodel=" + model_identity(spec));
}

fs::path default_output(const fs::path& spec, const std::optional<Shard>& shard) {
  std::string name = spec.stem().string();
  if (shard && !shard->whole()) name += ".shard" + std::to_string(shard->index) + "of" + std::to_string(shard->count);
  return name + ".h5";
}

void check_output_path(const fs::path& output, const std::vector<fs::path>& inputs) {
  const std::string origin = "-o " + output.string();
  sim::check_output_file(output, origin);
  std::error_code ec;
  for (const auto& input : inputs)
    if (fs::equivalent(output, input, ec))
      throw sim::InputError(origin, "is the input " + input.string() + "; writing it would destroy the input");
  const fs::path journal = journal_path(output);
  if (fs::exists(journal, ec) && !fs::is_regular_file(journal, ec))
    throw sim::InputError(origin, "its journal " + journal.string() + " exists and is not a regular file");
}

SweepOutcome outcome_of(const std::optional<EveryPointFailed>& failed) {
  if (!failed) return SweepOutcome::Complete;
  return failed->refused ? SweepOutcome::EveryPointRefused : SweepOutcome::EveryPointFailed;
}

SweepOutcome run_sweep(const SweepRunOptions& options, const PointRunner& runner) {
  SweepSpec spec = parse_spec(options.spec);
  check_output_path(options.output, {options.spec});
  std::vector<Point> all = enumerate_points(spec);
  Shard shard = options.shard.value_or(Shard{});
  std::vector<Point> mine;
  for (const auto& p : all)
    if (shard.owns(p.index)) mine.push_back(p);

  DriverOptions d;
  d.jobs = options.jobs;
  d.journal = journal_path(options.output);
  d.sweep_fingerprint = sweep_fingerprint(spec, shard.text());
  d.progress = options.progress;
  d.log_interval = options.log_interval;
  d.label = "sweep " + options.spec.filename().string() + (shard.whole() ? "" : " shard " + shard.text());
  d.stop = options.stop;
  DriverOutcome outcome = run_points(mine, runner, d);
  if (outcome.interrupted) {
    std::fprintf(stderr, "%zu finished points are saved in %s; run the same command again to resume\n",
                 outcome.results.size(), d.journal->c_str());
    return SweepOutcome::Interrupted;
  }
  ResultFileInfo info{options.command_line, {}, std::nullopt};
  if (!shard.whole()) info.shard = shard;
  // In a shard file the rows are the shard's points; point indices stay global.
  std::vector<PointResult>& results = outcome.results;
  if (shard.whole()) {  // a shard's points are put in order where they meet, by `sweep merge`
    DriverOptions full = d;
    full.journal = journal_path(options.output, ".full");
    full.sweep_fingerprint = sweep_fingerprint(spec, "whole, refined in full");
    full.label = d.label + " (points simulated again in full)";
    if (refine_order(all, results, runner, full).interrupted) {
      std::fprintf(stderr, "finished points are saved in %s and %s; run the same command again to resume\n",
                   d.journal->c_str(), full.journal->c_str());
      return SweepOutcome::Interrupted;
    }
  }
  write_result_file(options.output, spec, all, results, info);
  fs::remove(*d.journal);
  fs::remove(journal_path(options.output, ".full"));
  std::fprintf(stderr, "results: %s\n", options.output.c_str());
  const auto failed = every_point_failed(results);
  if (failed && !shard.whole()) {
    // Other shards may hold the sweep's successful points; `sweep merge` judges the whole.
    std::fprintf(stderr, "note: every point of shard %s failed; point %zu: %s\n", shard.text().c_str(), failed->index,
                 failed->first.c_str());
    return SweepOutcome::Complete;
  }
  if (failed) std::fprintf(stderr, "%s: %s\n", options.spec.c_str(), failed->summary().c_str());
  return outcome_of(failed);
}

}  // namespace warpsim::sweeps
