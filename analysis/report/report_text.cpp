#include "analysis/report/report_text.hpp"

#include <cmath>
#include <cstdio>

#include "analysis/report/text_table.hpp"

namespace warpsim::analysis {
namespace {

// Four significant digits: enough to rank points, short enough for a table.
std::string significant(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Bytes in binary units, as the specs write sizes (4M = 4 MiB).
std::string bytes(double v) {
  if (!std::isfinite(v)) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (std::fabs(v) >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fixed(v, 0) + " B" : fixed(v, 2) + " " + units[u];
}

std::string metric_text(const std::string& name, double v) {
  if (name.find("bytes") != std::string::npos) return bytes(v);
  if (name == "achieved_occupancy") return fixed(v, 3);
  if (name.find("efficiency") != std::string::npos || name.find("rate") != std::string::npos) return fixed(v, 1);
  return significant(v);
}

// Short column headings so the table fits a terminal; the legend under the table gives each
// one's result column, so nothing has to be guessed.
struct Heading {
  const char* metric;
  const char* heading;
};
constexpr Heading kHeadings[] = {{"achieved_occupancy", "occupancy"}, {"gld_efficiency", "gld_eff%"},
                                 {"gst_efficiency", "gst_eff%"},      {"l2_hit_rate", "l2_hit%"},
                                 {"dram_read_bytes", "dram_read"},    {"dram_write_bytes", "dram_write"}};

std::string metric_heading(const std::string& name) {
  for (const auto& h : kHeadings)
    if (name == h.metric) return h.heading;
  return name;
}

void print_points(std::ostream& out, const GroupReport& g) {
  std::vector<std::string> header = {"", "point"};
  for (const auto& a : g.axes) header.push_back(a);
  header.push_back("time_ms");
  header.push_back("cycles");
  for (const auto& [name, value] : g.best->metrics) header.push_back(metric_heading(name));
  header.push_back("limiter");
  TextTable t(header);
  auto row = [&](const char* label, const PointSummary& p) {
    std::vector<std::string> r = {label, std::to_string(p.point)};
    for (const auto& v : p.parameters) r.push_back(v.text);
    r.push_back(significant(p.time_ms));
    r.push_back(std::to_string(p.cycles));
    for (const auto& [name, value] : p.metrics) r.push_back(metric_text(name, value));
    r.push_back(p.limiter.empty() ? "-" : p.limiter);
    t.add_row(r);
  };
  row("best", *g.best);
  row("worst", *g.worst);
  t.print(out, "  ");
}

void print_sensitivity(std::ostream& out, const GroupReport& g) {
  if (g.sensitivity.empty()) return;
  out << "\n  sensitivity of time_ms along each axis, the other axes held at the best point:\n";
  TextTable t({"axis", "points", "fastest at", "time_ms", "slowest at", "time_ms", "max/min", "max-min ms"});
  for (const auto& s : g.sensitivity) {
    std::string points = std::to_string(s.ok) + (s.ok == s.points ? "" : " of " + std::to_string(s.points));
    t.add_row({s.axis, points, s.fastest ? s.fastest->text : "-", s.fastest ? significant(s.fastest->time_ms) : "-",
               s.slowest ? s.slowest->text : "-", s.slowest ? significant(s.slowest->time_ms) : "-",
               std::isfinite(s.ratio) ? fixed(s.ratio, 2) + "x" : "-", significant(s.spread_ms)});
  }
  t.print(out, "  ");
}

// "block 32-96: latency (too few warps ...); 128-1024: dram-bandwidth (DRAM at 91% ...)".
void print_limiters(std::ostream& out, const GroupReport& g) {
  bool any = false;
  for (const auto& a : g.limiters) any = any || !a.spans.empty();
  if (!any) return;
  out << "\n  limiter along each axis, the other axes held at the best point:\n";
  for (const auto& a : g.limiters) {
    if (a.spans.empty()) continue;
    out << "    " << a.axis << ' ';
    for (std::size_t i = 0; i < a.spans.size(); ++i) {
      const LimiterSpan& s = a.spans[i];
      out << (i ? "; " : "") << s.from << (s.points > 1 ? "-" + s.to : "") << ": " << s.limiter;
      if (!s.evidence.empty()) out << " (" << s.evidence << ")";
    }
    out << '\n';
  }
}

void print_failures(std::ostream& out, const GroupReport& g) {
  if (!g.first_failure) return;
  const auto& f = *g.first_failure;
  out << "\n  failed: " << g.failed << " point" << (g.failed == 1 ? "" : "s") << "; e.g. point " << f.point;
  for (const auto& p : f.parameters) out << ' ' << p.name << '=' << p.text;
  out << " (status " << f.status << "): " << f.message << '\n';
}

void print_group(std::ostream& out, const GroupReport& g) {
  out << "\n== study " << g.study << ": " << g.arch << ", " << g.kernel << "  (" << g.points << " points, " << g.ok
      << " ok, " << g.failed << " failed)\n";
  if (!g.axes.empty()) {
    out << "  axes:";
    for (const auto& a : g.axes) out << ' ' << a;
    out << '\n';
  }
  out << '\n';
  if (g.best) {
    print_points(out, g);
    print_sensitivity(out, g);
    print_limiters(out, g);
  } else {
    out << "  no point finished (status 0): no best or worst\n";
  }
  print_failures(out, g);
}

}  // namespace

void print_report_text(std::ostream& out, const SweepReport& r) {
  out << "warpsim report: " << r.file << '\n';
  if (!r.description.empty()) out << "  " << r.description << '\n';
  out << "  " << r.schema << ", warpsim " << r.warpsim_version << " (git " << r.git_commit << "), created "
      << r.created_utc << '\n';
  out << "  " << r.points << " points: " << r.ok << " ok, " << r.failed << " failed";
  if (!r.shard.empty()) out << "  (shard " << r.shard << " of a " << r.total_points << "-point sweep)";
  out << '\n';
  for (const auto& g : r.groups) print_group(out, g);
  out << "\ncolumns: occupancy = achieved_occupancy (0-1); gld_eff%, gst_eff% = gld_efficiency, gst_efficiency;\n"
         "  l2_hit% = l2_hit_rate; dram_read, dram_write = dram_read_bytes, dram_write_bytes; limiter as in\n"
         "  `warpsim run --help`. Times in ms.\n";
}

}  // namespace warpsim::analysis
