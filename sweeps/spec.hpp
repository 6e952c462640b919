#pragma once
// A sweep spec: one INI file with a [sweep] section and one [study NAME] section per Cartesian
// product (docs/sweeps.md). Parsing checks every name and value, so a bad spec fails at
// file:line before any point runs and before any output file exists.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::sweeps {

// One `name = value(s)` line of a study. `name` is "arch", "kernel", "trace", a kernel or policy
// parameter ("block", "hit_ratio"), or "set.<preset key>" for an architecture parameter.
struct Setting {
  std::string name;
  std::vector<std::string> values;
  bool is_axis = false;  // a list or range: a dimension of the study's product
  int line = 0;
};

struct Study {
  std::string name;
  int line = 0;
  std::uint64_t seed = 1;
  bool sample = false;  // `sample = on`: sampled simulation (run --sample) for every point
  // arch first, then kernel or trace, then the rest in file order: the order of the product's
  // dimensions (the last one varies fastest).
  std::vector<Setting> settings;

  const Setting* find(const std::string& name) const;
  std::vector<const Setting*> axes() const;
  bool uses_traces() const { return find("trace") != nullptr; }
  std::size_t point_count() const;
};

// The most points one spec may have: they are all enumerated in memory, ~3 GB at this size.
inline constexpr std::size_t kMaxSweepPoints = 10'000'000;

struct SweepSpec {
  std::string file;         // where it was read from, for messages
  std::string description;  // [sweep] description
  std::uint64_t seed = 1;
  bool sample = false;  // [sweep] sample = on: every study's default
  std::vector<Study> studies;
  bool any_sampled() const;
  std::size_t point_count() const;
};

// Reads and checks a spec. Throws sim::InputError("file:line", ...) for anything wrong.
SweepSpec parse_spec(const std::filesystem::path& file);
// The same, from text already in memory (a result file's /config); `name` is used in messages.
SweepSpec parse_spec_text(const std::string& text, const std::string& name);

// The spec with every list and range written out: parsing it again gives the same points. This
// is what a result file stores in /config and what shards compare to know they belong together.
std::string resolved_spec_text(const SweepSpec& spec);

}  // namespace warpsim::sweeps
