#include "analysis/derive/preset_text.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sim/ini.hpp"

namespace warpsim::analysis {
namespace {

// Where the source comment starts, as in the presets written by hand.
constexpr std::size_t kCommentColumn = 42;

// The base preset's abbreviation lines ("#   WP    = NVIDIA H100 ... whitepaper"): the lines of
// its opening comment indented under it.
std::vector<std::string> abbreviations(const std::filesystem::path& base_file) {
  std::ifstream in(base_file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line) && line.rfind('#', 0) == 0;)
    if (line.rfind("#   ", 0) == 0) out.push_back(line.substr(2));
  return out;
}

const DerivedValue* find(const Derivation& d, const std::string& key) {
  for (const auto& v : d.values())
    if (v.key == key) return &v;
  return nullptr;
}

}  // namespace

PresetText preset_text(const std::filesystem::path& base_file, const std::string& base_name,
                       const std::vector<std::string>& header, const Derivation& derived) {
  PresetText out;
  std::ostringstream text;
  for (const auto& line : header) text << "#" << (line.empty() ? "" : " ") << line << '\n';
  const auto abbreviations_of_base = abbreviations(base_file);
  if (!abbreviations_of_base.empty()) {
    text << "# " << base_name << "'s abbreviations, which its inherited sources use (their files are " << base_name
         << "'s):\n";
    for (const auto& line : abbreviations_of_base) text << "# " << line << '\n';
  }
  std::string section;
  std::set<std::string> written;
  for (const auto& e : sim::read_ini(base_file)) {
    written.insert(e.key);
    const auto dot = e.key.find('.');
    const std::string s = e.key.substr(0, dot), name = e.key.substr(dot + 1);
    if (s != section) {
      text << (section.empty() ? "" : "\n") << '[' << s << "]\n";
      section = s;
    }
    const DerivedValue* v = find(derived, e.key);
    std::string line = name + " = " + (v ? v->value : e.value);
    line.resize(std::max(line.size() + 1, kCommentColumn), ' ');
    text << line << "# " << (v ? v->source : "inherited from " + base_name + (e.comment.empty() ? "" : ": " + e.comment))
         << '\n';
    ++(v ? out.derived : out.inherited);
  }
  for (const auto& v : derived.values())
    if (!written.count(v.key)) throw std::logic_error("derived " + v.key + " is not a key of " + base_file.string());
  out.text = text.str();
  return out;
}

}  // namespace warpsim::analysis
