// warpsim run: simulate one library kernel or one trace and print cycles, time and metrics.
#include <iomanip>
#include <iostream>

#include "cli/options.hpp"
#include "models/simulate.hpp"

namespace warpsim::cli {

int cmd_run(const Args& args) {
  const char* usage =
      "run --arch ARCH (--kernel KERNEL [-p key=value]... | --trace PATH) [--set key=value]... [--seed N] [--json]";
  po::options_description options("run options");
  options.add_options()("arch", po::value<std::string>()->required(), "architecture preset (warpsim arch list)")(
      "kernel", po::value<std::string>(), "library kernel (warpsim kernels)")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "kernel parameter key=value")(
      "trace", po::value<std::string>(), "kernelslist.g, .traceg, .traceg.xz or .wtrace")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a preset parameter key=value")(
      "seed", po::value<std::string>()->default_value("1"), "random seed")("json", po::bool_switch(),
                                                                            "print one JSON object");
  po::variables_map vm;
  if (!parse_options("run", usage, options, {}, args, vm)) return kExitOk;

  models::RunRequest request;
  request.arch = vm["arch"].as<std::string>();
  if (vm.count("kernel")) request.kernel = vm["kernel"].as<std::string>();
  if (vm.count("trace")) request.trace = vm["trace"].as<std::string>();
  if (vm.count("param")) request.kernel_params = vm["param"].as<std::vector<std::string>>();
  if (vm.count("set")) request.arch_overrides = vm["set"].as<std::vector<std::string>>();
  request.seed = unsigned_option(vm, "seed");

  models::RunResult r = models::simulate(request);
  for (const auto& w : r.warnings) std::cerr << "warning: " << w << '\n';
  if (vm["json"].as<bool>()) {
    std::cout << models::to_json(r) << '\n';
    return kExitOk;
  }
  std::cout << r.arch << "  " << r.kernel;
  for (const auto& [k, v] : r.params) std::cout << ' ' << k << '=' << v;
  std::cout << "\n\n" << std::left << std::setw(26) << "cycles" << r.cycles << '\n'
            << std::setw(26) << "time_ms" << r.time_ms << '\n';
  for (const auto& [name, value] : r.metrics) std::cout << std::setw(26) << name << value << '\n';
  std::cout << std::setw(26) << "wall_s" << r.wall_s << '\n';
  return kExitOk;
}

}  // namespace warpsim::cli
