// warpsim arch list | arch show ARCH: the presets, and every parameter by component with unit and
// source; arch derive DIR --from BASE: a preset from a GPU's calibration measurements.
#include <fstream>
#include <iomanip>
#include <iostream>

#include "analysis/derive/derive_preset.hpp"
#include "cli/options.hpp"
#include "models/arch.hpp"
#include "sim/errors.hpp"
#include "sim/json.hpp"
#include "sim/output_file.hpp"

namespace warpsim::cli {
namespace {

// Writes the preset to `output` (whole or not at all: a temporary file renamed over it), or to
// stdout when no file is named.
int derive(const std::string& dir, const std::string& base, const std::string& output) {
  if (!output.empty()) sim::check_output_file(output, "-o");
  const analysis::DerivedPreset preset = analysis::derive_preset(dir, base);
  if (output.empty()) {
    std::cout << preset.text;
  } else {
    const std::filesystem::path target = sim::output_target(output);
    const std::filesystem::path temporary = target.string() + ".partial";
    {
      std::ofstream out(temporary, std::ios::binary);
      out << preset.text;
      if (!out.flush()) throw sim::InputError("-o", "cannot write " + temporary.string());
    }
    std::filesystem::rename(temporary, target);
  }
  std::cerr << "arch derive: " << preset.gpu << ": " << preset.derived << " values derived from " << dir << ", "
            << preset.inherited << " inherited from " << base << (output.empty() ? "" : "; wrote " + output) << '\n';
  return kExitOk;
}

}  // namespace

int cmd_arch(const Args& args) {
  const char* usage =
      "arch list | arch show ARCH [--set key=value]... [--json] | arch derive CALIBRATION_DIR --from BASE [-o FILE]";
  po::options_description options("arch options");
  options.add_options()("action", po::value<std::string>(), "list, show or derive")(
      "name", po::value<std::string>(), "show: the preset (a name or a preset file); derive: the calibration directory")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a parameter: key=value")(
      "json", po::bool_switch(), "print JSON")(
      "from", po::value<std::string>(),
      "derive: the preset whose values the measurements cannot give are inherited (a name or a preset file)")(
      "output,o", po::value<std::string>()->default_value(""), "derive: write the preset here (default: stdout)");
  po::positional_options_description positional;
  positional.add("action", 1).add("name", 1);
  po::variables_map vm;
  if (!parse_options("arch", usage, options, positional, args, vm)) return kExitOk;
  std::string action = vm.count("action") ? vm["action"].as<std::string>() : "";
  bool json = vm["json"].as<bool>();

  if (action == "list") {
    for (const auto& name : models::preset_names()) {
      models::Arch a = models::load_arch(name);
      std::cout << std::left << std::setw(16) << name << a.gpu.name << " (sm_" << a.gpu.sm_version << ", " << a.gpu.sms
                << " SMs)\n";
    }
    return kExitOk;
  }
  if (action == "derive") {
    if (!vm.count("name") || !vm.count("from")) {
      std::cerr << "usage: warpsim " << usage << '\n';
      return kExitInputError;
    }
    return derive(vm["name"].as<std::string>(), vm["from"].as<std::string>(), vm["output"].as<std::string>());
  }
  if (action != "show" || !vm.count("name")) {
    std::cerr << "usage: warpsim " << usage << '\n';
    return kExitInputError;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  models::Arch a = models::load_arch(vm["name"].as<std::string>(), overrides);
  const sim::Config& c = a.config;
  if (json) {
    std::cout << "{\"arch\": " << sim::json_quote(a.preset) << ", \"parameters\": [";
    bool first = true;
    for (const auto& key : c.keys()) {
      auto s = c.setting(key);
      const auto& spec = c.spec(key);
      std::cout << (first ? "" : ", ") << "{\"key\": " << sim::json_quote(key)
                << ", \"value\": " << sim::json_quote(s.value) << ", \"unit\": " << sim::json_quote(spec.unit)
                << ", \"source\": " << sim::json_quote(s.source) << ", \"origin\": " << sim::json_quote(s.origin)
                << ", \"description\": " << sim::json_quote(spec.description) << '}';
      first = false;
    }
    std::cout << "]}\n";
    return kExitOk;
  }
  std::cout << a.preset << ": " << a.gpu.name << "\n\n";
  std::cout << std::left << std::setw(38) << "parameter" << std::setw(22) << "value" << std::setw(13) << "unit"
            << "source\n";
  // By component, each under its spec's title, in the presets' order.
  for (const auto& component : models::arch_components()) {
    std::cout << '\n' << component.title << '\n';
    for (const auto& spec : component.params) {
      auto s = c.setting(spec.key);
      std::string source = s.source;
      if (s.origin.rfind("--set", 0) == 0) source = "set on the command line (" + s.origin + ")";
      std::cout << std::left << std::setw(38) << spec.key << std::setw(22) << s.value << std::setw(13) << spec.unit
                << source << '\n';
    }
  }
  return kExitOk;
}

}  // namespace warpsim::cli
