#include "sweeps/result_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "models/arch.hpp"
#include "models/simulate.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sim/output_file.hpp"
#include "sim/version.hpp"
#include "sweeps/grid_writer.hpp"
#include "sweeps/h5_util.hpp"
#include "sweeps/result_checks.hpp"

namespace warpsim::sweeps {
namespace fs = std::filesystem;

std::string utc_timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// A parameter column: integers stay integers; a column some study leaves unset becomes float
// (NaN there) or string ("" there), so pandas and xarray see one plain dtype per column.
void write_parameter_column(hid_t file, hid_t point_scale, const std::string& name,
                            const std::vector<const std::string*>& values) {
  bool all_present = true, ints = true, floats = true;
  for (const auto* v : values) {
    if (!v) {
      all_present = false;
      continue;
    }
    std::int64_t i;
    double f;
    if (!sim::parse_int(*v, i)) ints = false;
    if (!sim::parse_float(*v, f)) floats = false;
  }
  std::vector<std::uint64_t> shape{values.size()};
  h5::Handle d;
  if (ints && all_present) {
    std::vector<std::int64_t> out;
    for (const auto* v : values) {
      std::int64_t i = 0;
      sim::parse_int(*v, i);
      out.push_back(i);
    }
    d = h5::write_int64(file, name, shape, out);
  } else if (ints || floats) {
    std::vector<double> out;
    for (const auto* v : values) {
      double f = std::numeric_limits<double>::quiet_NaN();
      std::int64_t i;
      if (v && sim::parse_int(*v, i)) f = double(i);
      else if (v) sim::parse_float(*v, f);
      out.push_back(f);
    }
    d = h5::write_double(file, name, shape, out);
  } else {
    std::vector<std::string> out;
    for (const auto* v : values) out.push_back(v ? *v : std::string());
    d = h5::write_strings(file, name, shape, out);
  }
  h5::attach_dimension(d, point_scale, 0);
}

// The kernel parameter `grid` (blocks) would collide with the /grid group: it becomes
// `param.grid`. Every other parameter keeps its name.
std::string parameter_column_name(const std::string& name) { return name == "grid" ? "param." + name : name; }

std::set<std::string> spec_archs(const SweepSpec& spec) {
  std::set<std::string> archs;
  for (const auto& st : spec.studies)
    if (const Setting* a = st.find("arch"))
      for (const auto& v : a->values) archs.insert(v);
  return archs;
}

std::string identity_text(const std::string& version, const std::string& commit,
                          const std::map<std::string, std::string>& presets) {
  std::string out = "warpsim " + version + " (" + commit + ")\n";
  for (const auto& [name, text] : presets) out += "[preset " + name + "]\n" + text;
  return out;
}

std::string preset_text(const std::string& name) {
  models::Arch arch = models::load_arch(name);
  std::string out;
  for (const auto& key : arch.config.keys()) {
    auto s = arch.config.setting(key);
    out += key + " = " + s.value + (s.source.empty() ? "" : "  # " + s.source) + "\n";
  }
  return out;
}

// A sampled sweep's columns (sampling.md): whether each point was sampled, the fraction it
// simulated in detail and its time's estimated error; and on every result column whether a
// sampled point's value is exact or extrapolated.
void write_sampling_columns(hid_t file, const h5::Handle& point, const std::vector<PointResult>& results) {
  const std::size_t n = results.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::uint64_t> shape{n};
  std::vector<std::int32_t> sampled(n);
  std::vector<double> fraction(n), error(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool asked = results[i].sampled >= 0;
    sampled[i] = results[i].sampled;
    fraction[i] = asked ? results[i].detail_fraction : nan;
    error[i] = asked ? results[i].time_error_pct : nan;
  }
  h5::attach_dimension(h5::write_int32(file, "sampled", shape, sampled), point, 0);
  h5::attach_dimension(h5::write_double(file, "detail_fraction", shape, fraction), point, 0);
  h5::attach_dimension(h5::write_double(file, "time_error_pct", shape, error), point, 0);
  label_sampled_columns(file);
}

void write_contents(const std::string& path, const SweepSpec& spec, const std::vector<Point>& points,
                    const std::vector<PointResult>& results, const ResultFileInfo& info) {
  h5::Handle file = h5::create_file(path);
  const std::size_t n = results.size();
  std::vector<std::uint64_t> shape{n};

  h5::set_string_attribute(file, "schema", kResultSchema);
  h5::set_string_attribute(file, "warpsim_version", sim::kVersion);
  h5::set_string_attribute(file, "git_commit", sim::kGitCommit);
  h5::set_string_attribute(file, "created_utc", info.created_utc.empty() ? utc_timestamp() : info.created_utc);
  h5::set_string_attribute(file, "command_line", info.command_line);
  h5::set_int64_attribute(file, "seed", static_cast<std::int64_t>(spec.seed));
  h5::set_int64_attribute(file, "total_points", static_cast<std::int64_t>(points.size()));
  if (!spec.description.empty()) h5::set_string_attribute(file, "description", spec.description);
  if (info.shard) h5::set_string_attribute(file, "shard", info.shard->text());

  // The `point` dimension: the global point index, so shards and merged files agree.
  std::vector<std::int64_t> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::int64_t>(results[i].index);
  h5::Handle point = h5::write_int64(file, "point", shape, index);
  h5::make_dimension_scale(point, "point");

  auto column_strings = [&](const std::string& name, auto get) {
    std::vector<std::string> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = get(points[results[i].index]);
    h5::attach_dimension(h5::write_strings(file, name, shape, v), point, 0);
  };
  column_strings("study", [&](const Point& p) { return spec.studies[p.study].name; });
  column_strings("arch", [](const Point& p) { return p.request.arch; });
  column_strings("kernel", [](const Point& p) { return p.request.kernel.empty() ? p.request.trace : p.request.kernel; });
  for (const auto& name : swept_parameter_names(spec)) {
    std::vector<const std::string*> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = point_value(spec, points[results[i].index], name);
    write_parameter_column(file, point, parameter_column_name(name), v);
  }

  std::vector<std::int64_t> cycles(n);
  std::vector<double> values(n);
  std::vector<std::int32_t> status(n);
  std::vector<std::string> messages(n);
  for (std::size_t i = 0; i < n; ++i) cycles[i] = results[i].cycles;
  h5::attach_dimension(h5::write_int64(file, "cycles", shape, cycles), point, 0);
  auto column_double = [&](const std::string& name, auto get) {
    for (std::size_t i = 0; i < n; ++i) values[i] = get(results[i]);
    h5::attach_dimension(h5::write_double(file, name, shape, values), point, 0);
  };
  column_double("time_ms", [](const PointResult& r) { return r.time_ms; });
  const auto& names = models::metric_names();
  for (std::size_t m = 0; m < names.size(); ++m)
    column_double(names[m], [m](const PointResult& r) { return r.metrics[m]; });
  // The text metrics (limiter ...): variable-length UTF-8 strings, "" where a point failed.
  const auto& text_names = models::text_metric_names();
  for (std::size_t m = 0; m < text_names.size(); ++m) {
    for (std::size_t i = 0; i < n; ++i) messages[i] = m < results[i].texts.size() ? results[i].texts[m] : std::string();
    h5::attach_dimension(h5::write_strings(file, text_names[m], shape, messages), point, 0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    status[i] = results[i].status;
    messages[i] = results[i].message;
  }
  h5::attach_dimension(h5::write_int32(file, "status", shape, status), point, 0);
  h5::attach_dimension(h5::write_strings(file, "message", shape, messages), point, 0);
  for (std::size_t i = 0; i < n; ++i) messages[i] = results[i].resolved_params;
  h5::attach_dimension(h5::write_strings(file, "resolved_params", shape, messages), point, 0);
  column_double("wall_s", [](const PointResult& r) { return r.wall_s; });
  if (spec.any_sampled()) write_sampling_columns(file, point, results);

  // /config: the resolved spec (parse_spec_text reads it back) and each preset it uses.
  h5::Handle config = h5::write_strings(file, "config", {}, {resolved_spec_text(spec)});
  for (const auto& a : spec_archs(spec)) h5::set_string_attribute(config, "preset " + a, preset_text(a));

  // /grid only for a whole sweep: a shard is not a full product.
  if (!info.shard && n == points.size()) {
    h5::Handle grid = h5::create_group(file, "grid");
    std::size_t first = 0;
    for (const auto& st : spec.studies) {
      std::vector<const PointResult*> rows;
      for (std::size_t i = 0; i < st.point_count(); ++i) rows.push_back(&results[first + i]);
      first += st.point_count();
      // One study: /grid/<metric>. Several: /grid/<study>/<metric>, each its own xarray Dataset.
      if (spec.studies.size() == 1) {
        write_grid(grid, st, rows);
      } else {
        h5::Handle group = h5::create_group(grid, st.name);
        write_grid(group, st, rows);
      }
    }
  }
  h5::check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + path);
}

}  // namespace

std::string model_identity(const SweepSpec& spec) {
  std::map<std::string, std::string> presets;
  for (const auto& a : spec_archs(spec)) presets[a] = preset_text(a);
  return identity_text(sim::kVersion, sim::kGitCommit, presets);
}

void write_result_file(const fs::path& out, const SweepSpec& spec, const std::vector<Point>& points,
                       const std::vector<PointResult>& results, const ResultFileInfo& info) {
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].index >= points.size() || (i > 0 && results[i].index <= results[i - 1].index))
      throw std::logic_error("write_result_file: results must be sorted by point index, without duplicates");
  const fs::path target = sim::output_target(out);  // through a symbolic link, which stays
  fs::path tmp = target;
  tmp += ".tmp-" + std::to_string(getpid());
  try {
    write_contents(tmp.string(), spec, points, results, info);
    // The rename is atomic; syncing first means a crash leaves the old file or the new one, never half of one.
    int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      ::fsync(fd);
      ::close(fd);
    }
    fs::rename(tmp, target);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

namespace {

ResultFileContents read_contents(const fs::path& path) {
  const std::string where = path.string();
  h5::Handle file = open_result_file(where);
  std::vector<std::string> columns = {"point", "status", "cycles", "time_ms", "wall_s", "message", "resolved_params"};
  const bool sampled = h5::exists(file, "sampled");
  if (sampled)
    for (const char* name : {"sampled", "detail_fraction", "time_error_pct"}) columns.push_back(name);
  for (const auto& m : models::metric_names()) columns.push_back(m);
  for (const auto& m : models::text_metric_names()) columns.push_back(m);
  require_columns(file, where, columns);
  ResultFileContents c;
  c.config = read_config_text(file, where);
  c.shard = h5::string_attribute_or(file, "shard", "");
  {
    // The model identity as model_identity() spelled it when the file was written.
    auto attribute = [](hid_t object, const std::string& name) { return h5::string_attribute_or(object, name, "?"); };
    h5::Handle config(H5Dopen2(file, "config", H5P_DEFAULT), H5Dclose, "open /config");
    std::map<std::string, std::string> presets;
    for (const auto& a : spec_archs(parse_spec_text(c.config, path.string() + ":/config")))
      presets[a] = attribute(config, "preset " + a);
    c.model = identity_text(attribute(file, "warpsim_version"), attribute(file, "git_commit"), presets);
  }
  const auto index = h5::read_int64(file, "point");
  auto same_rows = [&](const std::string& name, std::size_t rows) { require_rows(where, name, rows, index.size()); };
  const auto status = h5::read_int64(file, "status");
  const auto cycles = h5::read_int64(file, "cycles");
  const auto time_ms = h5::read_double(file, "time_ms");
  const auto wall_s = h5::read_double(file, "wall_s");
  const auto message = h5::read_strings(file, "message");
  const auto resolved = h5::read_strings(file, "resolved_params");
  same_rows("status", status.size());
  same_rows("cycles", cycles.size());
  same_rows("time_ms", time_ms.size());
  same_rows("wall_s", wall_s.size());
  same_rows("message", message.size());
  same_rows("resolved_params", resolved.size());
  std::vector<std::int64_t> sampled_column;
  std::vector<double> fraction, error;
  if (sampled) {
    sampled_column = h5::read_int64(file, "sampled");
    fraction = h5::read_double(file, "detail_fraction");
    error = h5::read_double(file, "time_error_pct");
    same_rows("sampled", sampled_column.size());
    same_rows("detail_fraction", fraction.size());
    same_rows("time_error_pct", error.size());
  }
  std::vector<std::vector<double>> metrics;
  for (const auto& m : models::metric_names()) {
    metrics.push_back(h5::read_double(file, m));
    same_rows(m, metrics.back().size());
  }
  std::vector<std::vector<std::string>> texts;
  for (const auto& m : models::text_metric_names()) {
    texts.push_back(h5::read_strings(file, m));
    same_rows(m, texts.back().size());
  }
  c.results.resize(index.size());
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0) throw sim::InputError(where, "/point holds a negative index");
    PointResult& r = c.results[i];
    r.index = static_cast<std::size_t>(index[i]);
    r.status = static_cast<int>(status[i]);
    r.cycles = cycles[i];
    r.time_ms = time_ms[i];
    r.wall_s = wall_s[i];
    r.message = message[i];
    r.resolved_params = resolved[i];
    for (const auto& col : metrics) r.metrics.push_back(col[i]);
    for (const auto& col : texts) r.texts.push_back(col[i]);
    if (sampled && sampled_column[i] >= 0) {
      r.sampled = static_cast<int>(sampled_column[i]);
      r.detail_fraction = fraction[i];
      r.time_error_pct = error[i];
    }
  }
  return c;
}

}  // namespace

ResultFileContents read_result_file(const fs::path& path) {
  return h5::read_file_checked(path, [&] { return read_contents(path); });
}

}  // namespace warpsim::sweeps
