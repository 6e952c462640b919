#include "sweeps/spec.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>

#include "models/arch.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sim/ini.hpp"
#include "sweeps/axis_values.hpp"
#include "sweeps/spec_vocabulary.hpp"

namespace warpsim::sweeps {
namespace fs = std::filesystem;

const Setting* Study::find(const std::string& n) const {
  for (const auto& s : settings)
    if (s.name == n) return &s;
  return nullptr;
}

std::vector<const Setting*> Study::axes() const {
  std::vector<const Setting*> out;
  for (const auto& s : settings)
    if (s.is_axis) out.push_back(&s);
  return out;
}

// Both saturate at SIZE_MAX: four axes of a million values overflow 64 bits.
std::size_t Study::point_count() const {
  std::size_t n = 1;
  for (const auto& s : settings)
    if (__builtin_mul_overflow(n, s.values.size(), &n)) return SIZE_MAX;
  return n;
}

std::size_t SweepSpec::point_count() const {
  std::size_t n = 0;
  for (const auto& s : studies)
    if (__builtin_add_overflow(n, s.point_count(), &n)) return SIZE_MAX;
  return n;
}

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

bool valid_study_name(const std::string& n) {
  return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::uint64_t parse_seed(const std::string& text, const std::string& where) {
  std::int64_t v;
  if (!sim::parse_int(text, v) || v < 0) throw sim::InputError(where, "seed must be a non-negative integer, got '" + text + "'");
  return static_cast<std::uint64_t>(v);
}

bool parse_sample(const std::string& text, const std::string& where) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw sim::InputError(where, "sample must be on or off, got '" + text + "'");
}

// Checks the names and values of one study line that do not depend on the study's kernels.
void check_setting(const Setting& s, const std::string& where, const fs::path& spec_dir, Setting& out) {
  out = s;
  if (s.name == "arch") {
    auto presets = models::preset_names();
    for (const auto& v : s.values)
      if (std::find(presets.begin(), presets.end(), v) == presets.end())
        throw sim::InputError(where, "unknown architecture '" + v + "'; known: " + join(presets));
  } else if (s.name == "kernel") {
    for (const auto& v : s.values) check_kernel(v, where);
  } else if (s.name == "trace") {
    // Relative trace paths are relative to the spec, so a spec and its traces move together.
    for (auto& v : out.values) {
      fs::path p = fs::path(v).is_absolute() ? fs::path(v) : spec_dir / v;
      if (!fs::exists(p)) throw sim::InputError(where, "trace '" + v + "' not found (looked at " + p.string() + ")");
      v = fs::absolute(p).lexically_normal().string();
    }
  } else if (s.name.rfind("set.", 0) == 0) {
    for (const auto& v : s.values) check_preset_parameter(s.name.substr(4), v, where);
  }
}

// Kernel and policy parameters: every kernel of the study must take the parameter and every value.
void check_kernel_settings(const Study& st, const std::string& file) {
  const Setting* kernels = st.find("kernel");
  std::vector<std::string> names = kernels ? kernels->values : std::vector<std::string>{""};
  for (const auto& s : st.settings) {
    if (s.name == "arch" || s.name == "kernel" || s.name == "trace" || s.name.rfind("set.", 0) == 0) continue;
    const std::string where = file + ":" + std::to_string(s.line);
    for (const auto& k : names)
      for (const auto& v : s.values) check_kernel_parameter(k, s.name, v, where);
  }
}

SweepSpec parse_entries(const std::vector<sim::IniEntry>& entries, const std::string& file, const fs::path& spec_dir) {
  SweepSpec spec;
  spec.file = file;
  std::map<std::string, std::size_t> study_index;
  std::vector<bool> study_seed_given, study_sample_given;
  for (const auto& e : entries) {
    const std::string where = file + ":" + std::to_string(e.line);
    auto dot = e.key.find('.');
    if (dot == std::string::npos)
      throw sim::InputError(where, "'" + e.key + "' is outside any section; put it under [sweep] or [study NAME]");
    std::string section = e.key.substr(0, dot), name = e.key.substr(dot + 1);
    if (section == "sweep") {
      if (name == "seed") {
        spec.seed = parse_seed(e.value, where);
      } else if (name == "description") {
        spec.description = e.value;
      } else if (name == "sample") {
        spec.sample = parse_sample(e.value, where);
      } else {
        throw sim::InputError(where, "unknown key '" + name + "' in [sweep]; known: seed, sample, description");
      }
      continue;
    }
    if (section.rfind("study ", 0) != 0)
      throw sim::InputError(where, "unknown section [" + section + "]; expected [sweep] or [study NAME]");
    std::string study_name = section.substr(6);
    study_name.erase(0, study_name.find_first_not_of(" \t"));
    if (!valid_study_name(study_name))
      throw sim::InputError(where, "study name '" + study_name + "' may only use letters, digits, '_' and '-'");
    auto [it, fresh] = study_index.emplace(study_name, spec.studies.size());
    if (fresh) {
      spec.studies.push_back(Study{study_name, e.line, 0, false, {}});
      study_seed_given.push_back(false);
      study_sample_given.push_back(false);
    }
    Study& study = spec.studies[it->second];
    if (name == "seed") {
      study.seed = parse_seed(e.value, where);
      study_seed_given[it->second] = true;
      continue;
    }
    if (name == "sample") {
      study.sample = parse_sample(e.value, where);
      study_sample_given[it->second] = true;
      continue;
    }
    AxisValues parsed = parse_axis_values(e.value, where);
    Setting s{name, std::move(parsed.values), parsed.is_axis, e.line}, checked;
    check_setting(s, where, spec_dir, checked);
    study.settings.push_back(std::move(checked));
  }
  if (spec.studies.empty())
    throw sim::InputError(file, "no [study NAME] section: a spec needs at least one study (see docs/sweeps.md)");
  for (std::size_t i = 0; i < spec.studies.size(); ++i) {
    Study& st = spec.studies[i];
    const std::string where = file + ":" + std::to_string(st.line);
    if (!study_seed_given[i]) st.seed = spec.seed;
    if (!study_sample_given[i]) st.sample = spec.sample;
    if (!st.find("arch")) throw sim::InputError(where, "study '" + st.name + "' has no 'arch ='");
    bool kernel = st.find("kernel"), trace = st.find("trace");
    if (kernel == trace) throw sim::InputError(where, "study '" + st.name + "' needs exactly one of 'kernel =' or 'trace ='");
    // arch, then kernel or trace, lead the product so a grid reads arch x kernel x parameters.
    std::stable_partition(st.settings.begin(), st.settings.end(),
                          [](const Setting& s) { return s.name == "arch"; });
    std::stable_partition(st.settings.begin() + 1, st.settings.end(),
                          [](const Setting& s) { return s.name == "kernel" || s.name == "trace"; });
    check_kernel_settings(st, file);
  }
  // Every point is enumerated in memory (~330 bytes each), shards included.
  if (spec.point_count() > kMaxSweepPoints) {
    std::string sizes;
    for (const auto& st : spec.studies)
      sizes += (sizes.empty() ? "" : ", ") + st.name + " " +
               (st.point_count() == SIZE_MAX ? std::string("more than 2^64") : std::to_string(st.point_count()));
    throw sim::InputError(file, "the sweep has more than " + std::to_string(kMaxSweepPoints) +
                                    " points (studies: " + sizes + "); split it into several specs");
  }
  return spec;
}

}  // namespace

SweepSpec parse_spec(const fs::path& file) {
  auto entries = sim::read_ini(file);
  fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  return parse_entries(entries, file.string(), dir);
}

SweepSpec parse_spec_text(const std::string& text, const std::string& name) {
  // read_ini reads files; a private temporary file keeps one parser for both.
  fs::path tmp = fs::temp_directory_path() / ("warpsim-spec-" + std::to_string(getpid()) + "-" +
                                              std::to_string(reinterpret_cast<std::uintptr_t>(&text)) + ".ini");
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw sim::InputError(tmp.string(), "cannot write a temporary copy of " + name);
  }
  try {
    auto entries = sim::read_ini(tmp);
    SweepSpec spec = parse_entries(entries, name, fs::current_path());
    fs::remove(tmp);
    return spec;
  } catch (...) {
    fs::remove(tmp);
    throw;
  }
}

bool SweepSpec::any_sampled() const {
  return std::any_of(studies.begin(), studies.end(), [](const Study& st) { return st.sample; });
}

std::string resolved_spec_text(const SweepSpec& spec) {
  std::ostringstream out;
  // No file path here: the same spec reached by another path is the same sweep (journal, merge).
  out << "# warpsim sweep spec, resolved: every list and range written out\n";
  out << "[sweep]\n";
  if (!spec.description.empty()) out << "description = " << spec.description << '\n';
  out << "seed = " << spec.seed << '\n';
  for (const auto& st : spec.studies) {
    out << "\n[study " << st.name << "]\nseed = " << st.seed << '\n';
    if (st.sample) out << "sample = on\n";
    for (const auto& s : st.settings) {
      out << s.name << " = " << join(s.values);
      // A one-value axis keeps its trailing comma so it stays an axis when read back.
      if (s.is_axis && s.values.size() == 1) out << ',';
      out << '\n';
    }
  }
  return out.str();
}

}  // namespace warpsim::sweeps
