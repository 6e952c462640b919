#pragma once
// Parameter tables and resolved configurations. Every model declares its parameters (name,
// type, default, unit, description) next to its code as a ParamSpec list; a Config holds the
// specs of one run and the value of each, with where that value came from (a preset's
// file:line, "--set", or the default). Unknown keys and bad values are InputErrors naming
// that origin.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace warpsim::sim {

enum class ParamType { Int, Float, Bool, String, Choice };

struct ParamSpec {
  std::string key;            // "sm.max_threads"
  ParamType type = ParamType::Int;
  std::string default_value;  // empty: the value must be given
  std::string unit;           // "threads", "bytes", "cycles", "" for none
  std::string description;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;  // for ParamType::Choice
};

struct ParamSetting {
  std::string value;
  std::string origin;  // "presets/kepler-k20x.ini:12", "--set", "default"
  std::string source;  // the comment beside the value: where the number comes from
};

class Config {
 public:
  Config() = default;
  explicit Config(std::vector<ParamSpec> specs);

  // Adds specs; a key declared twice is a programming error.
  void declare(const std::vector<ParamSpec>& specs);

  // Reads `key = value  # source` lines; unknown keys and bad values name file:line.
  void load_ini(const std::filesystem::path& file);
  // "key=value" from the command line or a sweep point. An integer may carry a size suffix
  // ("--set l2.size_bytes=4M", as sweep specs write it); it is stored as the plain number.
  void set_assignment(const std::string& assignment, const std::string& origin = "--set");
  void set(const std::string& key, const std::string& value, const std::string& origin,
           const std::string& source = {});

  // Every required value present and every value parses and lies in range.
  void validate() const;

  bool has(const std::string& key) const { return specs_.count(key) != 0; }
  std::int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  std::string get_string(const std::string& key) const;

  const ParamSpec& spec(const std::string& key) const;
  // The effective setting, with origin "default" when nothing set it.
  ParamSetting setting(const std::string& key) const;
  // Specs in declaration order.
  const std::vector<std::string>& keys() const { return order_; }

 private:
  std::string checked_value(const std::string& key) const;
  void check(const std::string& key, const std::string& value, const std::string& origin) const;
  [[noreturn]] void unknown_key(const std::string& key, const std::string& origin) const;

  std::map<std::string, ParamSpec> specs_;
  std::vector<std::string> order_;
  std::map<std::string, ParamSetting> settings_;
};

// Parsing helpers shared with sweep specs; they return false instead of throwing.
bool parse_int(const std::string& text, std::int64_t& out);
// An integer with an optional binary size suffix: "4K" = 4096, "64M", "1G"; false on overflow.
bool parse_size(const std::string& text, std::int64_t& out);
// A size with a suffix as its plain number ("4M" -> "4194304"); any other text unchanged.
std::string without_size_suffix(const std::string& text);
bool parse_float(const std::string& text, double& out);
bool parse_bool(const std::string& text, bool& out);

}  // namespace warpsim::sim
