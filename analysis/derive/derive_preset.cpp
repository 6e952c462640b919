// See derive_preset.hpp. The steps (derive_steps.hpp) run in order, each on the base preset with
// the values derived before it, so that every simulation behind a value runs the preset as far as
// it is known.
#include "analysis/derive/derive_preset.hpp"

#include "analysis/derive/derive_steps.hpp"
#include "analysis/derive/preset_text.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

// The base preset with the values derived so far, refused with the measurements that gave an
// impossible value (a range or a relation between keys the preset cannot hold).
models::Arch applied(const std::filesystem::path& dir, const std::string& base, const Derivation& d) {
  try {
    return models::load_arch(base, d.overrides());
  } catch (const sim::InputError& e) {
    std::string sources;
    for (const auto& v : d.values())
      if (std::string(e.what()).find("--set " + v.key) != std::string::npos) sources += "; " + v.key + " from " + v.source;
    throw sim::InputError(dir.string(), std::string("the measurements give an impossible preset: ") + e.what() + sources);
  }
}

}  // namespace

DerivedPreset derive_preset(const std::filesystem::path& dir, const std::string& base) {
  const CalibrationData data = read_calibration(dir);
  const std::filesystem::path base_file = models::preset_file(base);
  Derivation d;
  derive_device(data, models::load_arch(base), base, d);
  derive_latencies(data, applied(dir, base, d), base, d);
  derive_set_aside(data, applied(dir, base, d), base, d);  // l2.ways, which derive_memory counts sets by
  derive_memory(data, applied(dir, base, d), base, d);
  derive_slice_map(data, applied(dir, base, d), d);  // before the steps that simulate
  derive_dispatch(data, base, d);
  derive_write_batch(data, base, d);
  applied(dir, base, d);

  const std::string command = "warpsim arch derive " + dir.string() + " --from " + base;
  const std::vector<std::string> header = {
      data.gpu + ": a preset derived from measurements on the GPU itself, by",
      "  " + command,
      "Do not edit it by hand: change the measurements or the derivation (analysis/derive/) and run",
      "that again.",
      "The measurements: tools/gpu-probes/calibrate's output in " + dir.string(),
      "  (tools/gpu-probes/README.md says what each file holds), taken on",
      "  " + data.provenance + ".",
      "Every value carries its source after '#':",
      "  FILE:LINE = that row of the measurements' FILE, then the arithmetic; where a value needs the",
      "              model's own time for a measured kernel, the source says which runs",
      "  inherited from " + base + " = not measured by calibrate: " + base + "'s value, after its source",
  };
  PresetText text = preset_text(base_file, base, header, d);
  return DerivedPreset{data.gpu, std::move(text.text), text.derived, text.inherited};
}

}  // namespace warpsim::analysis
