#pragma once
// `warpsim arch derive`: a preset from the measurements tools/gpu-probes/calibrate took of a GPU.
// Every value the measurements give is derived, with its source (file, row, arithmetic) in its
// comment; every other value is the base preset's, marked inherited. The same measurements and
// base give the same text, byte for byte (models/presets/hopper-h200.ini is checked against it).
#include <filesystem>
#include <string>

namespace warpsim::analysis {

struct DerivedPreset {
  std::string gpu;   // the measured GPU's name
  std::string text;  // the preset file
  std::size_t derived = 0, inherited = 0;
};

// `dir`: calibrate's output directory, as the user named it (the preset's header repeats it and
// the command, so say it as it should be read there); `base`: a preset name or file.
DerivedPreset derive_preset(const std::filesystem::path& dir, const std::string& base);

}  // namespace warpsim::analysis
