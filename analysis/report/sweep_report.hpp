#pragma once
// The content of `warpsim report`: per study and, within it, per architecture and kernel, the
// best and worst points (status 0, by time_ms), the failures and each axis's sensitivity.
// Rendering is separate (report_text.hpp, report_json.hpp), so both forms say the same thing.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/report/axis_sensitivity.hpp"
#include "analysis/report/limiter_changes.hpp"
#include "analysis/report/point_summary.hpp"
#include "analysis/report/result_table.hpp"

namespace warpsim::analysis {

struct FailureSample {
  std::int64_t point = 0;
  int status = 0;
  std::string message;
  std::vector<ParameterValue> parameters;
};

struct GroupReport {
  std::string study, arch, kernel;
  std::vector<std::string> axes;  // the study's axes other than arch, kernel and trace
  std::size_t points = 0, ok = 0, failed = 0;
  std::optional<FailureSample> first_failure;
  std::optional<PointSummary> best, worst;  // absent when no point of the group is ok
  std::vector<AxisSensitivity> sensitivity;  // one per axis, in axes order
  std::vector<AxisLimiters> limiters;        // one per axis, in axes order
};

struct SweepReport {
  std::string file, schema, warpsim_version, git_commit, created_utc, description, shard;
  std::int64_t total_points = 0;
  std::size_t points = 0, ok = 0, failed = 0;  // rows in this file
  std::vector<GroupReport> groups;
};

SweepReport build_report(const ResultTable& table);

}  // namespace warpsim::analysis
