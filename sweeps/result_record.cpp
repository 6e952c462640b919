#include "sweeps/result_record.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "models/simulate.hpp"
#include "sim/config.hpp"

namespace warpsim::sweeps {
namespace {

std::string hex_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

bool parse_hex_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

bool unescape(const std::string& s, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    switch (s[i]) {
      case '\\': out += '\\'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return false;
    }
  }
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    auto at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

}  // namespace

std::uint64_t fingerprint(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string encode_result(const PointResult& r) {
  std::string body = std::to_string(r.index) + '\t' + std::to_string(r.status) + '\t' + std::to_string(r.cycles) + '\t' +
                     hex_double(r.time_ms) + '\t' + hex_double(r.wall_s) + '\t';
  for (std::size_t i = 0; i < r.metrics.size(); ++i) {
    if (i) body += ',';
    body += hex_double(r.metrics[i]);
  }
  body += '\t' + escape(r.message);
  body += '\t' + escape(r.resolved_params);
  // One field per text metric, as many as the build names (models::text_metric_names()).
  for (std::size_t i = 0; i < models::text_metric_names().size(); ++i)
    body += '\t' + escape(i < r.texts.size() ? r.texts[i] : std::string());
  // Sampling's three numbers, only for a sampled sweep's points (after the text fields; other points have none).
  if (r.sampled >= 0)
    body += '\t' + std::to_string(r.sampled) + ',' + hex_double(r.detail_fraction) + ',' + hex_double(r.time_error_pct);
  char sum[24];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(fingerprint(body)));
  return body + '\t' + sum + '\n';
}

std::optional<PointResult> decode_result(const std::string& raw, std::size_t metric_count) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\n') line.pop_back();
  auto last_tab = line.rfind('\t');
  if (last_tab == std::string::npos || line.size() - last_tab - 1 != 16) return std::nullopt;
  std::string body = line.substr(0, last_tab);
  char sum[24];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(fingerprint(body)));
  if (line.compare(last_tab + 1, 16, sum) != 0) return std::nullopt;
  auto f = split(body, '\t');
  const std::size_t text_count = models::text_metric_names().size();
  if (f.size() != 8 + text_count && f.size() != 9 + text_count) return std::nullopt;
  PointResult r;
  std::int64_t index, status;
  if (!sim::parse_int(f[0], index) || index < 0 || !sim::parse_int(f[1], status) || !sim::parse_int(f[2], r.cycles) ||
      !parse_hex_double(f[3], r.time_ms) || !parse_hex_double(f[4], r.wall_s) || !unescape(f[6], r.message) ||
      !unescape(f[7], r.resolved_params))
    return std::nullopt;
  r.texts.resize(text_count);
  for (std::size_t i = 0; i < text_count; ++i)
    if (!unescape(f[8 + i], r.texts[i])) return std::nullopt;
  r.index = static_cast<std::size_t>(index);
  r.status = static_cast<int>(status);
  if (f.size() == 9 + text_count) {
    auto s = split(f[8 + text_count], ',');
    std::int64_t sampled;
    if (s.size() != 3 || !sim::parse_int(s[0], sampled) || sampled < 0 || sampled > 1 ||
        !parse_hex_double(s[1], r.detail_fraction) || !parse_hex_double(s[2], r.time_error_pct))
      return std::nullopt;
    r.sampled = static_cast<int>(sampled);
  }
  auto m = split(f[5], ',');
  if (m.size() != metric_count) return std::nullopt;
  r.metrics.resize(metric_count);
  for (std::size_t i = 0; i < metric_count; ++i)
    if (!parse_hex_double(m[i], r.metrics[i])) return std::nullopt;
  return r;
}

}  // namespace warpsim::sweeps
