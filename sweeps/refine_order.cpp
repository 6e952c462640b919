#include "sweeps/refine_order.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace warpsim::sweeps {
namespace {

struct Interval {
  double low, high;
  std::size_t index;
  bool sampled;
};

// Marks, among `spans` (one study's points), every sampled one whose interval meets another's.
// Sorted by their low ends, an interval meets a later one exactly when the next low end is at most
// its high end, and an earlier one when the highest high end before it reaches its low end.
void mark_overlaps(std::vector<Interval>& spans, std::vector<std::size_t>& out) {
  std::sort(spans.begin(), spans.end(),
            [](const Interval& a, const Interval& b) { return a.low < b.low || (a.low == b.low && a.index < b.index); });
  double highest_before = -1;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const Interval& s = spans[k];
    const bool meets_earlier = k > 0 && highest_before >= s.low;
    const bool meets_later = k + 1 < spans.size() && spans[k + 1].low <= s.high;
    if (s.sampled && (meets_earlier || meets_later)) out.push_back(s.index);
    highest_before = std::max(highest_before, s.high);
  }
}

}  // namespace

std::vector<std::size_t> unordered_points(const std::vector<Point>& points, const std::vector<PointResult>& results) {
  std::map<std::size_t, std::size_t> study_of;
  for (const auto& p : points) study_of[p.index] = p.study;
  std::map<std::size_t, std::vector<Interval>> by_study;
  for (const auto& r : results) {
    if (r.status != kPointOk) continue;
    const double error = r.sampled == 1 ? r.time_ms * r.time_error_pct / 100 : 0;
    by_study[study_of.at(r.index)].push_back({r.time_ms - error, r.time_ms + error, r.index, r.sampled == 1});
  }
  std::vector<std::size_t> out;
  for (auto& [study, spans] : by_study) mark_overlaps(spans, out);
  std::sort(out.begin(), out.end());
  return out;
}

RefineOutcome refine_order(const std::vector<Point>& points, std::vector<PointResult>& results,
                           const PointRunner& runner, const DriverOptions& options) {
  RefineOutcome outcome;
  const std::vector<std::size_t> unordered = unordered_points(points, results);
  if (unordered.empty()) return outcome;
  std::map<std::size_t, const Point*> point_at;
  for (const auto& p : points) point_at[p.index] = &p;
  std::vector<Point> again;
  for (std::size_t index : unordered) {
    again.push_back(*point_at.at(index));
    again.back().request.sample = false;
  }
  std::fprintf(stderr, "sampling: %zu of %zu points lie within their stated time errors of another point of their "
                       "study; simulating them in full, so that the order of every study's points is the full "
                       "simulation's\n",
               again.size(), results.size());
  DriverOutcome full = run_points(again, runner, options);
  outcome.interrupted = full.interrupted;
  if (full.interrupted) return outcome;
  std::map<std::size_t, PointResult*> result_at;
  for (auto& r : results) result_at[r.index] = &r;
  for (PointResult& r : full.results) {
    r.sampled = 0;
    r.detail_fraction = 1;
    r.time_error_pct = 0;
    const std::string why = "sampling: simulated in full: its sampled time lay within the stated errors of another "
                            "point's of its study";
    r.message = r.message.empty() ? why : why + "; " + r.message;
    *result_at.at(r.index) = std::move(r);
  }
  outcome.refined = full.results.size();
  return outcome;
}

}  // namespace warpsim::sweeps
