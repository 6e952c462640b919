#include "sweeps/axis_values.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <unordered_set>
#include <algorithm>

#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sim/text.hpp"

namespace warpsim::sweeps {
namespace {

std::string trimmed(const std::string& s) { return std::string(sim::trim(s)); }

// Digits after the decimal point as written, so a float range prints at the precision the user wrote.
int decimals_of(const std::string& text) {
  auto dot = text.find('.');
  if (dot == std::string::npos) return 0;
  auto e = text.find_first_of("eE", dot);
  return static_cast<int>((e == std::string::npos ? text.size() : e) - dot - 1);
}

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? std::string("0") : s;
}

// Enough for any sweep that should run on one machine or one cluster allocation.
constexpr std::size_t kMaxAxisValues = 1000000;

std::vector<std::string> parse_range(const std::string& text, const std::string& where) {
  auto bad = [&](const std::string& why) -> std::vector<std::string> {
    throw sim::InputError(where, "bad range '" + text + "': " + why +
                                     " (write FIRST..LAST, FIRST..LAST step S or FIRST..LAST x FACTOR)");
  };
  auto dots = text.find("..");
  std::string first = trimmed(text.substr(0, dots));
  std::string rest = trimmed(text.substr(dots + 2));
  std::string last = rest, step_text, kind;
  if (auto sp = rest.find_first_of(" \t"); sp != std::string::npos) {
    last = trimmed(rest.substr(0, sp));
    std::string tail = trimmed(rest.substr(sp));
    auto sp2 = tail.find_first_of(" \t");
    if (sp2 == std::string::npos) return bad("expected 'step S' or 'x FACTOR' after the last value");
    kind = tail.substr(0, sp2);
    step_text = trimmed(tail.substr(sp2));
    if (kind != "step" && kind != "x") return bad("unknown word '" + kind + "'");
  }
  if (first.empty() || last.empty()) return bad("missing first or last value");

  std::vector<std::string> out;
  std::int64_t a, b, s = 1;
  bool integers = sim::parse_size(first, a) && sim::parse_size(last, b) &&
                  (step_text.empty() || sim::parse_size(step_text, s));
  if (kind == "x") {
    double fa, fb, f;
    if (!sim::parse_float(step_text, f) || f <= 1) return bad("the factor must be a number above 1");
    if (integers) {
      if (a <= 0) return bad("a geometric range must start above 0");
      if (b < a) return bad("the last value is below the first");
      for (double v = double(a); v <= double(b) * (1 + 1e-12); v *= f) {
        if (v >= 0x1p63) return bad("values beyond the 64-bit integer range");  // llround would overflow
        out.push_back(std::to_string(std::llround(v)));
        if (out.size() > kMaxAxisValues) return bad("more than a million values");
      }
      return out;
    }
    if (!sim::parse_float(first, fa) || !sim::parse_float(last, fb)) return bad("the bounds are not numbers");
    if (fa <= 0) return bad("a geometric range must start above 0");
    if (fb < fa) return bad("the last value is below the first");
    int dec = std::max(decimals_of(first), decimals_of(last)) + 6;
    for (double v = fa; v <= fb * (1 + 1e-12); v *= f) {
      out.push_back(format_fixed(v, dec));
      if (out.size() > kMaxAxisValues) return bad("more than a million values");
    }
    return out;
  }
  if (integers) {
    if (s <= 0) return bad("the step must be positive");
    if (b < a) return bad("the last value is below the first");
    // Counted in unsigned arithmetic: b - a and a last `v += s` can pass INT64_MAX.
    const std::uint64_t steps = (std::uint64_t(b) - std::uint64_t(a)) / std::uint64_t(s);
    if (steps >= kMaxAxisValues) return bad("more than a million values");
    for (std::uint64_t i = 0; i <= steps; ++i)
      out.push_back(std::to_string(static_cast<std::int64_t>(std::uint64_t(a) + i * std::uint64_t(s))));
    return out;
  }
  double fa, fb, fs = 1;
  if (!sim::parse_float(first, fa) || !sim::parse_float(last, fb) ||
      (!step_text.empty() && !sim::parse_float(step_text, fs)))
    return bad("the bounds and step must be numbers");
  if (fs <= 0) return bad("the step must be positive");
  if (fb < fa) return bad("the last value is below the first");
  // Count steps with a tolerance so 0..1 step 0.05 includes 1 despite rounding.
  double count = std::floor((fb - fa) / fs + 1e-9);
  if (count >= double(kMaxAxisValues)) return bad("more than a million values");
  int dec = std::max({decimals_of(first), decimals_of(last), decimals_of(step_text)});
  for (std::int64_t i = 0; i <= std::int64_t(count); ++i) out.push_back(format_fixed(fa + double(i) * fs, dec));
  return out;
}

// Size suffixes become plain integers so the simulator and the result columns see numbers.
std::string normalise_single(const std::string& item) { return sim::without_size_suffix(item); }

}  // namespace

AxisValues parse_axis_values(const std::string& raw, const std::string& where) {
  std::string text = trimmed(raw);
  if (text.empty()) throw sim::InputError(where, "no value given (an axis needs at least one value)");
  AxisValues out;
  if (text.find(',') != std::string::npos) {
    out.is_axis = true;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto comma = text.find(',', start);
      std::string item = trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      bool last_item = comma == std::string::npos;
      // A trailing comma marks a one-value axis: `block = 256,`.
      if (item.empty() && !(last_item && !out.values.empty()))
        throw sim::InputError(where, "empty item in the list '" + text + "'");
      if (!item.empty()) {
        if (item.find("..") != std::string::npos) {
          for (auto& v : parse_range(item, where)) out.values.push_back(std::move(v));
        } else {
          out.values.push_back(normalise_single(item));
        }
      }
      if (last_item) break;
      start = comma + 1;
    }
  } else if (text.find("..") != std::string::npos) {
    out.is_axis = true;
    out.values = parse_range(text, where);
  } else {
    out.values.push_back(normalise_single(text));
  }
  if (out.values.empty()) throw sim::InputError(where, "the axis '" + text + "' has no values");
  std::unordered_set<std::string> seen;
  for (const auto& v : out.values)
    if (!seen.insert(v).second) throw sim::InputError(where, "the value '" + v + "' appears twice in '" + text + "'");
  return out;
}

}  // namespace warpsim::sweeps
