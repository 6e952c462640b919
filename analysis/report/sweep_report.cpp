#include "analysis/report/sweep_report.hpp"

#include <cmath>

#include "sweeps/result_file.hpp"

namespace warpsim::analysis {
namespace {

bool is_group_key(const std::string& setting) { return setting == "arch" || setting == "kernel" || setting == "trace"; }

std::vector<std::string> group_axes(const sweeps::Study& study) {
  std::vector<std::string> out;
  for (const auto* s : study.axes())
    if (!is_group_key(s->name)) out.push_back(s->name);
  return out;
}

GroupReport build_group(const ResultTable& table, const std::vector<std::size_t>& rows, std::vector<std::string> axes) {
  const Column& time = table.column("time_ms");
  const Column& status = table.column("status");
  GroupReport g;
  g.study = table.column("study").text(rows.front());
  g.arch = table.column("arch").text(rows.front());
  g.kernel = table.column("kernel").text(rows.front());
  g.axes = std::move(axes);
  g.points = rows.size();
  std::optional<std::size_t> best, worst;
  for (std::size_t row : rows) {
    double t = time.number(row);
    if (status.number(row) != 0 || !std::isfinite(t)) {
      ++g.failed;
      if (!g.first_failure) {
        PointSummary p = summarize_point(table, row, g.axes);
        g.first_failure = FailureSample{p.point, static_cast<int>(status.number(row)),
                                        table.column("message").text(row), p.parameters};
      }
      continue;
    }
    ++g.ok;
    // Strict comparisons: among equal times the earliest point wins, deterministically.
    if (!best || t < time.number(*best)) best = row;
    if (!worst || t > time.number(*worst)) worst = row;
  }
  if (!best) return g;
  g.best = summarize_point(table, *best, g.axes);
  g.worst = summarize_point(table, *worst, g.axes);
  for (const auto& axis : g.axes) {
    g.sensitivity.push_back(axis_sensitivity(table, rows, *best, g.axes, axis));
    g.limiters.push_back(limiter_changes(table, rows, *best, g.axes, axis));
  }
  return g;
}

}  // namespace

SweepReport build_report(const ResultTable& table) {
  SweepReport r;
  r.file = table.file;
  r.schema = sweeps::kResultSchema;
  r.warpsim_version = table.warpsim_version;
  r.git_commit = table.git_commit;
  r.created_utc = table.created_utc;
  r.description = table.description;
  r.shard = table.shard;
  r.total_points = table.total_points;
  r.points = table.rows;

  const Column& study = table.column("study");
  const Column& arch = table.column("arch");
  const Column& kernel = table.column("kernel");
  // Studies in spec order; within one, (arch, kernel) groups in the order their first point appears.
  for (const auto& st : table.spec.studies) {
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t row = 0; row < table.rows; ++row) {
      if (study.text(row) != st.name) continue;
      auto it = groups.begin();
      for (; it != groups.end(); ++it)
        if (arch.same(row, it->front()) && kernel.same(row, it->front())) break;
      if (it == groups.end()) groups.push_back({row});
      else it->push_back(row);
    }
    for (const auto& rows : groups) {
      r.groups.push_back(build_group(table, rows, group_axes(st)));
      r.ok += r.groups.back().ok;
      r.failed += r.groups.back().failed;
    }
  }
  return r;
}

}  // namespace warpsim::analysis
