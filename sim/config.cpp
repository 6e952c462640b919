#include "sim/config.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "sim/errors.hpp"
#include "sim/ini.hpp"

namespace warpsim::sim {

bool parse_int(const std::string& text, std::int64_t& out) {
  if (text.empty()) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    b += 2;
    base = 16;
  }
  auto [p, ec] = std::from_chars(b, e, out, base);
  return ec == std::errc() && p == e;
}

bool parse_size(const std::string& text, std::int64_t& out) {
  if (text.empty()) return false;
  std::int64_t scale = 1;
  switch (text.back()) {
    case 'K': scale = std::int64_t{1} << 10; break;
    case 'M': scale = std::int64_t{1} << 20; break;
    case 'G': scale = std::int64_t{1} << 30; break;
    default: break;
  }
  if (!parse_int(scale == 1 ? text : text.substr(0, text.size() - 1), out)) return false;
  // 99999999999G would wrap around to a negative number.
  if (out > std::numeric_limits<std::int64_t>::max() / scale || out < std::numeric_limits<std::int64_t>::min() / scale)
    return false;
  out *= scale;
  return true;
}

std::string without_size_suffix(const std::string& text) {
  std::int64_t size = 0;
  const bool suffixed = !text.empty() && std::string_view("KMG").find(text.back()) != std::string_view::npos;
  return suffixed && parse_size(text, size) ? std::to_string(size) : text;
}

bool parse_float(const std::string& text, double& out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size() && std::isfinite(out);
}

bool parse_bool(const std::string& text, bool& out) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return out = true, true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return out = false, true;
  return false;
}

Config::Config(std::vector<ParamSpec> specs) { declare(specs); }

void Config::declare(const std::vector<ParamSpec>& specs) {
  for (const auto& s : specs) {
    if (!specs_.emplace(s.key, s).second) throw std::logic_error("parameter declared twice: " + s.key);
    order_.push_back(s.key);
  }
}

void Config::unknown_key(const std::string& key, const std::string& origin) const {
  // Suggest keys of the same section, which is where a typo most likely went wrong.
  std::string section = key.substr(0, key.find('.'));
  std::ostringstream known;
  int shown = 0;
  for (const auto& k : order_)
    if (k.compare(0, section.size() + 1, section + ".") == 0 && shown++ < 40) known << ' ' << k;
  std::string hint = shown ? "; known keys in [" + section + "]:" + known.str()
                           : "; see 'warpsim arch show' for the known keys";
  throw InputError(origin, "unknown parameter '" + key + "'" + hint);
}

void Config::load_ini(const std::filesystem::path& file) {
  for (const auto& e : read_ini(file))
    set(e.key, e.value, file.string() + ":" + std::to_string(e.line), e.comment);
}

void Config::set_assignment(const std::string& assignment, const std::string& origin) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(origin, "expected key=value, got '" + assignment + "'");
  set(assignment.substr(0, eq), assignment.substr(eq + 1), origin + " " + assignment.substr(0, eq));
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin,
                 const std::string& source) {
  if (!has(key)) unknown_key(key, origin);
  const std::string plain = spec(key).type == ParamType::Int ? without_size_suffix(value) : value;
  check(key, plain, origin);
  ParamSetting s{plain, origin, source};
  // An override keeps the preset's source comment only if it did not change the value.
  if (source.empty()) {
    if (auto it = settings_.find(key); it != settings_.end() && it->second.value == plain)
      s.source = it->second.source;
  }
  settings_[key] = std::move(s);
}

void Config::check(const std::string& key, const std::string& value, const std::string& origin) const {
  const ParamSpec& s = spec(key);
  auto bad = [&](const std::string& why) {
    throw InputError(origin, "bad value '" + value + "' for " + key + ": " + why);
  };
  auto in_range = [&](double v) {
    if (v < s.min || v > s.max) {
      std::ostringstream r;
      r.precision(15);  // 1048576, not 1.04858e+06
      r << "must be in [" << s.min << ", " << s.max << "]";
      bad(r.str());
    }
  };
  switch (s.type) {
    case ParamType::Int: {
      std::int64_t v;
      if (!parse_int(value, v)) bad("expected an integer");
      in_range(static_cast<double>(v));
      break;
    }
    case ParamType::Float: {
      double v;
      if (!parse_float(value, v)) bad("expected a number");
      in_range(v);
      break;
    }
    case ParamType::Bool: {
      bool v;
      if (!parse_bool(value, v)) bad("expected true or false");
      break;
    }
    case ParamType::Choice: {
      for (const auto& c : s.choices)
        if (c == value) return;
      std::string list;
      for (const auto& c : s.choices) list += (list.empty() ? "" : ", ") + c;
      bad("expected one of " + list);
    }
    case ParamType::String:
      break;
  }
}

void Config::validate() const {
  for (const auto& key : order_) {
    ParamSetting s = setting(key);
    if (s.value.empty() && spec(key).type != ParamType::String)
      throw InputError(s.origin == "default" ? key : s.origin, "no value given for " + key);
    check(key, s.value, s.origin);
  }
}

const ParamSpec& Config::spec(const std::string& key) const {
  auto it = specs_.find(key);
  if (it == specs_.end()) unknown_key(key, key);
  return it->second;
}

ParamSetting Config::setting(const std::string& key) const {
  if (auto it = settings_.find(key); it != settings_.end()) return it->second;
  return ParamSetting{spec(key).default_value, "default", {}};
}

std::string Config::checked_value(const std::string& key) const {
  ParamSetting s = setting(key);
  if (s.value.empty() && spec(key).type != ParamType::String)
    throw InputError(key, "no value given for " + key);
  return s.value;
}

std::int64_t Config::get_int(const std::string& key) const {
  std::int64_t v = 0;
  if (!parse_int(checked_value(key), v)) throw InputError(setting(key).origin, key + " is not an integer");
  return v;
}

double Config::get_float(const std::string& key) const {
  double v = 0;
  if (!parse_float(checked_value(key), v)) throw InputError(setting(key).origin, key + " is not a number");
  return v;
}

bool Config::get_bool(const std::string& key) const {
  bool v = false;
  if (!parse_bool(checked_value(key), v)) throw InputError(setting(key).origin, key + " is not true/false");
  return v;
}

std::string Config::get_string(const std::string& key) const { return setting(key).value; }

}  // namespace warpsim::sim
