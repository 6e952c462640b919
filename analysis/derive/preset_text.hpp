#pragma once
// A derived preset as text, in the layout of models/presets/*.ini: the base preset's sections and
// keys in its order, `key = value` and the source after '#' from column 43. A derived value
// carries its own source; any other is the base preset's value, its source kept after
// "inherited from BASE:". Keys the base gives are all written whatever they are, so new preset
// keys reach derived presets without a change here.
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/derive/derivation.hpp"

namespace warpsim::analysis {

struct PresetText {
  std::string text;
  std::size_t derived = 0, inherited = 0;  // values of each kind written
};

// `header`: the lines of the comment that opens the file, without their "# "; the base preset's
// own abbreviation lines follow them, for the inherited sources that use them.
PresetText preset_text(const std::filesystem::path& base_file, const std::string& base_name,
                       const std::vector<std::string>& header, const Derivation& derived);

}  // namespace warpsim::analysis
