#pragma once
// A sweep result file read back for analysis: its provenance, the resolved spec from /config
// (which says what each study swept) and the 1-D columns along `point`. Only the 1-D columns are
// used, so a shard (which has no /grid) and a merged file are read the same way.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analysis/report/column.hpp"
#include "sweeps/spec.hpp"

namespace warpsim::analysis {

struct ResultTable {
  std::string file;
  std::string warpsim_version, git_commit, created_utc, description;
  std::string shard;              // "I/N" for a shard file, "" for a whole sweep
  std::int64_t total_points = 0;  // points of the whole sweep (a shard holds fewer rows)
  sweeps::SweepSpec spec;         // parsed from /config
  std::size_t rows = 0;
  std::map<std::string, Column> columns;

  bool has(const std::string& name) const { return columns.count(name) != 0; }
  const Column& column(const std::string& name) const;  // throws sim::InputError naming the file
};

// The metrics the report shows for a point, in this order (CONTRACT.md names).
const std::vector<std::string>& key_metric_names();

// The result column of a swept setting: the kernel parameter `grid` is stored as `param.grid`
// because `/grid` is the N-D group (docs/sweeps.md); every other name is its own.
std::string column_name_of_setting(const std::string& setting);

// Reads `file`. Anything that is not a complete warpsim-sweep/1 result (missing, not HDF5, no or
// another schema, truncated or damaged, a required column missing) throws sim::InputError whose
// message starts with the file name and says what is wrong.
ResultTable read_result_table(const std::filesystem::path& file);

}  // namespace warpsim::analysis
