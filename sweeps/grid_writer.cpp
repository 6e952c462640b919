#include "sweeps/grid_writer.hpp"

#include <cmath>
#include <limits>

#include "models/simulate.hpp"
#include "sim/config.hpp"
#include "sweeps/h5_util.hpp"

namespace warpsim::sweeps {
namespace {

// Axis values as numbers when they all are, so coordinates plot and select as numbers.
h5::Handle write_axis(hid_t group, const Setting& axis) {
  bool ints = true, floats = true;
  std::vector<std::int64_t> iv;
  std::vector<double> fv;
  for (const auto& v : axis.values) {
    std::int64_t i;
    double f;
    if (ints && sim::parse_int(v, i)) iv.push_back(i);
    else ints = false;
    if (floats && sim::parse_float(v, f)) fv.push_back(f);
    else floats = false;
  }
  std::vector<std::uint64_t> shape{axis.values.size()};
  h5::Handle d = ints     ? h5::write_int64(group, axis.name, shape, iv)
                 : floats ? h5::write_double(group, axis.name, shape, fv)
                          : h5::write_strings(group, axis.name, shape, axis.values);
  h5::make_dimension_scale(d, axis.name);
  return d;
}

}  // namespace

void write_grid(hid_t group, const Study& study, const std::vector<const PointResult*>& results) {
  auto axes = study.axes();
  std::vector<std::uint64_t> shape;
  std::vector<h5::Handle> scales;
  for (const auto* a : axes) {
    shape.push_back(a->values.size());
    scales.push_back(write_axis(group, *a));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto attach_all = [&](const h5::Handle& d) {
    for (unsigned k = 0; k < scales.size(); ++k) h5::attach_dimension(d, scales[k], k);
  };
  // A study with no axes is one point: its grid is a 0-D (scalar) dataset per metric.
  std::vector<double> values(results.size());
  auto write_metric = [&](const std::string& name, auto get) {
    for (std::size_t i = 0; i < results.size(); ++i) values[i] = results[i]->status == kPointOk ? get(*results[i]) : nan;
    attach_all(h5::write_double(group, name, shape, values));
  };
  write_metric("cycles", [](const PointResult& r) { return double(r.cycles); });
  write_metric("time_ms", [](const PointResult& r) { return r.time_ms; });
  const auto& names = models::metric_names();
  for (std::size_t m = 0; m < names.size(); ++m)
    write_metric(names[m], [m](const PointResult& r) { return r.metrics[m]; });
  // The text metrics over the same axes; "" where a point failed, as its numbers are NaN.
  std::vector<std::string> texts(results.size());
  const auto& text_names = models::text_metric_names();
  for (std::size_t m = 0; m < text_names.size(); ++m) {
    for (std::size_t i = 0; i < results.size(); ++i)
      texts[i] = results[i]->status == kPointOk && m < results[i]->texts.size() ? results[i]->texts[m] : std::string();
    attach_all(h5::write_strings(group, text_names[m], shape, texts));
  }
  std::vector<std::int32_t> status(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) status[i] = results[i]->status;
  attach_all(h5::write_int32(group, "status", shape, status));
  if (!study.sample) return;
  for (std::size_t i = 0; i < results.size(); ++i) status[i] = results[i]->sampled;
  attach_all(h5::write_int32(group, "sampled", shape, status));
  write_metric("detail_fraction", [](const PointResult& r) { return r.detail_fraction; });
  write_metric("time_error_pct", [](const PointResult& r) { return r.time_error_pct; });
  label_sampled_columns(group);
}

void label_sampled_columns(hid_t group) {
  auto label = [&](const std::string& name, bool exact) {
    h5::Handle d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open " + name);
    h5::set_string_attribute(d, "when_sampled", exact ? "exact" : "extrapolated");
  };
  label("cycles", false);
  label("time_ms", false);
  for (const auto& name : models::metric_names()) label(name, models::exact_when_sampled(name));
}

}  // namespace warpsim::sweeps
