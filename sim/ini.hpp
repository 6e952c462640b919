#pragma once
// INI files (presets, configs, sweep specs), parsed with Boost.Program_options' config-file
// parser. Program_options does not report line numbers, so a light scan of the same text adds
// each entry's line and trailing comment: errors then name file:line, and presets carry the
// source of every number in that comment. Comments start with '#' anywhere on a line, or with ';'
// at its start.
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::sim {

struct IniEntry {
  std::string key;      // "section.name" (or "name" before any section)
  std::string value;    // trimmed, comment removed
  int line = 0;         // 1-based line in the file
  std::string comment;  // text after '#' on the same line, trimmed ("" if none)
};

// Reads every entry in file order. Throws InputError("file:line", cause) on syntax errors,
// on a key given twice, and when the file cannot be read.
std::vector<IniEntry> read_ini(const std::filesystem::path& file);

}  // namespace warpsim::sim
