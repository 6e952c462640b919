#include "sim/ini.hpp"

#include <boost/program_options/parsers.hpp>
#include <boost/program_options/options_description.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/errors.hpp"
#include "sim/text.hpp"

namespace warpsim::sim {
namespace {

std::string trimmed(const std::string& s) { return std::string(trim(s)); }

struct Located {
  int line;
  std::string comment;
};

// Finds where each key sits, and the first line Program_options would reject, if any.
std::map<std::string, Located> locate_keys(const std::string& text, const std::string& file) {
  std::map<std::string, Located> where;
  std::istringstream in(text);
  std::string raw, section;
  for (int line = 1; std::getline(in, raw); ++line) {
    std::string comment;
    auto hash = raw.find('#');
    if (hash != std::string::npos) {
      comment = trimmed(raw.substr(hash + 1));
      raw = raw.substr(0, hash);
    }
    std::string s = trimmed(raw);
    if (s.empty()) continue;
    if (s.front() == '[') {
      if (s.back() != ']' || s.size() < 3)
        throw InputError(file + ":" + std::to_string(line), "malformed section header '" + s + "'");
      section = trimmed(s.substr(1, s.size() - 2));
      continue;
    }
    auto eq = s.find('=');
    if (eq == std::string::npos)
      throw InputError(file + ":" + std::to_string(line),
                       "expected 'key = value' or '[section]', found '" + s + "'");
    std::string key = trimmed(s.substr(0, eq));
    if (key.empty()) throw InputError(file + ":" + std::to_string(line), "missing key before '='");
    std::string full = section.empty() ? key : section + "." + key;
    if (auto it = where.find(full); it != where.end())
      throw InputError(file + ":" + std::to_string(line),
                       "'" + full + "' is already set on line " + std::to_string(it->second.line));
    where.emplace(full, Located{line, comment});
  }
  return where;
}

}  // namespace

std::vector<IniEntry> read_ini(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file, "cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  // Editors on Windows save UTF-8 with a byte order mark; it is not part of the first line.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  // A line starting with ';' is a comment in most INI dialects (Python's configparser, Windows);
  // Program_options knows only '#', so such a line becomes a '#' comment, its number unchanged.
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t first = text.find_first_not_of(" \t", start);
    if (first != std::string::npos && text[first] == ';') text[first] = '#';
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;
    start = end + 1;
  }

  // The scan first: it rejects what Program_options would reject, but with a line number.
  auto where = locate_keys(text, file);

  namespace po = boost::program_options;
  po::options_description none;
  std::istringstream stream(text);
  po::parsed_options parsed(&none);
  try {
    parsed = po::parse_config_file(stream, none, /*allow_unregistered=*/true);
  } catch (const po::error& e) {
    throw InputError(file, e.what());
  }
  std::vector<IniEntry> entries;
  for (const auto& opt : parsed.options) {
    IniEntry e;
    e.key = opt.string_key;
    e.value = opt.value.empty() ? std::string() : trimmed(opt.value.front());
    if (auto it = where.find(e.key); it != where.end()) {
      e.line = it->second.line;
      e.comment = it->second.comment;
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace warpsim::sim
