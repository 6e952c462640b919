#include "analysis/validation/correlation_plot.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/errors.hpp"
#include "sim/output_file.hpp"

namespace warpsim::analysis {
namespace {
namespace fs = std::filesystem;

// Matplotlib's tab10, so the colours read like the project's other plots.
constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr double kBand = 0.10;  // the ±10% band of the time rows

// Plot geometry, in SVG user units.
constexpr double kWidth = 780, kHeight = 620, kLeft = 90, kRight = 230, kTop = 50, kBottom = 70;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

// The log10 range both axes share: every point with some room, out to whole 1-2-5 steps.
struct LogRange {
  double lo, hi;  // log10
};
LogRange range_of(const std::vector<CorrelationPoint>& points) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const auto& p : points)
    for (double v : {p.measured, p.simulated})
      if (v > 0) lo = std::min(lo, std::log10(v)), hi = std::max(hi, std::log10(v));
  if (lo > hi) return {0, 1};
  lo = std::floor((lo - 0.05) * 10) / 10;
  hi = std::ceil((hi + 0.05) * 10) / 10;
  if (hi - lo < 0.5) hi = lo + 0.5;
  return {lo, hi};
}

}  // namespace

std::string time_correlation_svg(const ValidationTable& table) {
  const auto& points = table.time_points;
  const LogRange r = range_of(points);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double v) { return kLeft + (std::log10(v) - r.lo) / (r.hi - r.lo) * plot_w; };
  auto y_of = [&](double v) { return kTop + plot_h - (std::log10(v) - r.lo) / (r.hi - r.lo) * plot_h; };
  const double vlo = std::pow(10.0, r.lo), vhi = std::pow(10.0, r.hi);

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << ' ' << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"25\" font-size=\"15\">" << escape(table.name)
      << ": simulated against measured time, per launch</text>\n";
  // The ±10% band and y = x, clipped to the plot.
  svg << "<clipPath id=\"plot\"><rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w
      << "\" height=\"" << plot_h << "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n"
      << "<polygon class=\"band\" fill=\"#dddddd\" points=\"" << number(x_of(vlo)) << ',' << number(y_of(vlo * (1 + kBand)))
      << ' ' << number(x_of(vhi)) << ',' << number(y_of(vhi * (1 + kBand))) << ' ' << number(x_of(vhi)) << ','
      << number(y_of(vhi * (1 - kBand))) << ' ' << number(x_of(vlo)) << ',' << number(y_of(vlo * (1 - kBand)))
      << "\"/>\n<line class=\"identity\" x1=\"" << number(x_of(vlo)) << "\" y1=\"" << number(y_of(vlo)) << "\" x2=\""
      << number(x_of(vhi)) << "\" y2=\"" << number(y_of(vhi)) << "\" stroke=\"black\" stroke-width=\"1\"/>\n</g>\n";
  // Axes: a frame, and ticks at 1, 2 and 5 times each power of ten in range.
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (int e = int(std::floor(r.lo)); e <= int(std::ceil(r.hi)); ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, e), l = std::log10(v);
      if (l < r.lo - 1e-9 || l > r.hi + 1e-9) continue;
      const double x = x_of(v), y = y_of(v);
      const std::string text = number(v);
      svg << "<line x1=\"" << number(x) << "\" y1=\"" << kTop + plot_h << "\" x2=\"" << number(x) << "\" y2=\""
          << kTop + plot_h + 5 << "\" stroke=\"black\"/><text x=\"" << number(x) << "\" y=\"" << kTop + plot_h + 18
          << "\" text-anchor=\"middle\">" << text << "</text>\n"
          << "<line x1=\"" << kLeft - 5 << "\" y1=\"" << number(y) << "\" x2=\"" << kLeft << "\" y2=\"" << number(y)
          << "\" stroke=\"black\"/><text x=\"" << kLeft - 8 << "\" y=\"" << number(y + 4)
          << "\" text-anchor=\"end\">" << text << "</text>\n";
    }
  svg << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kHeight - 25
      << "\" text-anchor=\"middle\">measured time (ns, Nsight Compute gpu__time_duration.sum)</text>\n"
      << "<text transform=\"translate(22," << kTop + plot_h / 2
      << ") rotate(-90)\" text-anchor=\"middle\">simulated time (ns)</text>\n";
  // Points, one colour per group in order of first appearance; the legend beside the plot.
  std::vector<std::string> groups;
  std::map<std::string, std::size_t> counts;
  for (const auto& p : points) {
    if (!counts.count(p.group)) groups.push_back(p.group);
    ++counts[p.group];
  }
  for (const auto& p : points) {
    const auto g = std::size_t(std::find(groups.begin(), groups.end(), p.group) - groups.begin());
    svg << "<circle class=\"point\" cx=\"" << number(x_of(p.measured)) << "\" cy=\"" << number(y_of(p.simulated))
        << "\" r=\"3.5\" fill=\"" << kColours[g % std::size(kColours)] << "\" fill-opacity=\"0.75\"><title>"
        << escape(p.label) << ": measured " << number(p.measured) << ", simulated " << number(p.simulated)
        << "</title></circle>\n";
  }
  const double legend_x = kLeft + plot_w + 15;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const double y = kTop + 10 + 20 * double(g);
    svg << "<circle cx=\"" << legend_x + 5 << "\" cy=\"" << y << "\" r=\"4\" fill=\"" << kColours[g % std::size(kColours)]
        << "\"/><text x=\"" << legend_x + 15 << "\" y=\"" << y + 4 << "\">" << escape(groups[g]) << " ("
        << counts[groups[g]] << ")</text>\n";
  }
  double y = kTop + 30 + 20 * double(groups.size());
  svg << "<text x=\"" << legend_x << "\" y=\"" << y << "\">line: y = x</text>\n<text x=\"" << legend_x << "\" y=\""
      << y + 16 << "\">grey: ±10%</text>\n";
  y += 44;
  for (const auto& [name, value] : table.summary)
    if (name.find(" time MAPE") == std::string::npos) {  // the table-wide figures, not each program's
      svg << "<text x=\"" << legend_x << "\" y=\"" << y << "\" font-size=\"11\">" << escape(name) << ": "
          << number(std::round(value * 1000) / 1000) << "</text>\n";
      y += 15;
    }
  svg << "</svg>\n";
  return svg.str();
}

std::vector<fs::path> write_time_correlation(const ValidationTable& table, const fs::path& dir) {
  if (table.time_points.empty()) return {};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw sim::InputError("--plot " + dir.string(), "cannot create the directory: " + ec.message());
  const fs::path svg = dir / (table.name + "-time.svg"), csv = dir / (table.name + "-time.csv");
  auto write = [](const fs::path& path, const std::string& text) {
    sim::check_output_file(path, "--plot");
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) throw sim::InputError(path.string(), "cannot write");
  };
  write(svg, time_correlation_svg(table));
  std::ostringstream rows;
  rows << "group,launch,measured_ns,simulated_ns\n";
  for (const auto& p : table.time_points) {
    std::string label = p.label;  // quoted, with its quotes doubled (CSV)
    for (std::size_t i = label.find('"'); i != std::string::npos; i = label.find('"', i + 2)) label.insert(i, 1, '"');
    rows << p.group << ",\"" << label << "\"," << number(p.measured) << ',' << number(p.simulated) << '\n';
  }
  write(csv, rows.str());
  return {svg, csv};
}

}  // namespace warpsim::analysis
