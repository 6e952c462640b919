#include "sweeps/points.hpp"

#include <algorithm>

namespace warpsim::sweeps {

std::vector<Point> enumerate_points(const SweepSpec& spec) {
  std::vector<Point> points;
  points.reserve(spec.point_count());
  for (std::size_t si = 0; si < spec.studies.size(); ++si) {
    const Study& st = spec.studies[si];
    std::vector<std::size_t> coords(st.settings.size(), 0);
    for (std::size_t n = 0, total = st.point_count(); n < total; ++n) {
      Point p;
      p.index = points.size();
      p.study = si;
      p.coords = coords;
      p.request.seed = st.seed;
      p.request.sample = st.sample;
      for (std::size_t k = 0; k < st.settings.size(); ++k) {
        const Setting& s = st.settings[k];
        const std::string& v = s.values[coords[k]];
        if (s.name == "arch") p.request.arch = v;
        else if (s.name == "kernel") p.request.kernel = v;
        else if (s.name == "trace") p.request.trace = v;
        else if (s.name.rfind("set.", 0) == 0) p.request.arch_overrides.push_back(s.name.substr(4) + "=" + v);
        else p.request.kernel_params.push_back(s.name + "=" + v);
      }
      points.push_back(std::move(p));
      // Row-major odometer: the last setting turns fastest.
      for (std::size_t k = st.settings.size(); k-- > 0;) {
        if (++coords[k] < st.settings[k].values.size()) break;
        coords[k] = 0;
      }
    }
  }
  return points;
}

const std::string* point_value(const SweepSpec& spec, const Point& p, const std::string& name) {
  const Study& st = spec.studies[p.study];
  for (std::size_t k = 0; k < st.settings.size(); ++k)
    if (st.settings[k].name == name) return &st.settings[k].values[p.coords[k]];
  return nullptr;
}

std::vector<std::string> swept_parameter_names(const SweepSpec& spec) {
  std::vector<std::string> names;
  for (const auto& st : spec.studies)
    for (const auto* s : st.axes()) {
      if (s->name == "arch" || s->name == "kernel" || s->name == "trace") continue;
      if (std::find(names.begin(), names.end(), s->name) == names.end()) names.push_back(s->name);
    }
  return names;
}

}  // namespace warpsim::sweeps
