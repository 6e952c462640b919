// warpsim analyze: the dependency graph of a thread block — critical path and ILP.
#include <iostream>

#include "analysis/dependency_graph.hpp"
#include "cli/options.hpp"
#include "models/arch.hpp"
#include "sim/errors.hpp"
#include "sim/json.hpp"
#include "traces/kernels/library.hpp"
#include "traces/open_workload.hpp"

namespace warpsim::cli {
namespace {

struct Named {
  std::string kernel;
  analysis::DependencyAnalysis result;
};

void print(const std::vector<Named>& rows, const std::string& arch, std::uint64_t block, bool json) {
  if (json) {
    std::cout << "{\"arch\": " << sim::json_quote(arch) << ", \"block\": " << block << ", \"kernels\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& a = rows[i].result;
      std::cout << (i ? ", " : "") << "{\"kernel\": " << sim::json_quote(rows[i].kernel)
                << ", \"warps\": " << a.warps << ", \"instructions\": " << a.instructions
                << ", \"barriers\": " << a.barriers << ", \"critical_path_cycles\": " << a.critical_path_cycles
                << ", \"critical_path_length\": " << a.critical_path_length
                << ", \"ilp\": " << sim::json_number(a.ilp) << '}';
    }
    std::cout << "]}\n";
    return;
  }
  for (const auto& row : rows) {
    const auto& a = row.result;
    std::cout << row.kernel << " (block " << block << " on " << arch << ")\n"
              << "  warps                  " << a.warps << '\n'
              << "  instructions           " << a.instructions << '\n'
              << "  barrier rounds         " << a.barriers << '\n'
              << "  critical path          " << a.critical_path_cycles << " cycles (no schedule can be faster)\n"
              << "  longest dependency     " << a.critical_path_length << " instructions\n"
              << "  ILP                    " << a.ilp << " instructions per chain step\n";
  }
}

}  // namespace

int cmd_analyze(const Args& args) {
  const char* usage = "analyze --arch ARCH (--kernel KERNEL [-p key=value]... | --trace PATH) [--block N] [--json]";
  po::options_description options("analyze options");
  options.add_options()("arch", po::value<std::string>()->required(), "architecture preset (latencies)")(
      "kernel", po::value<std::string>(), "library kernel")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "kernel parameter key=value")(
      "trace", po::value<std::string>(), "kernelslist.g, .traceg, .traceg.xz or .wtrace")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a preset parameter key=value")(
      "block", po::value<std::string>()->default_value("0"), "thread block to analyse")("json", po::bool_switch(),
                                                                                        "print JSON");
  po::variables_map vm;
  if (!parse_options("analyze", usage, options, {}, args, vm)) return kExitOk;
  if (vm.count("kernel") == vm.count("trace")) throw sim::InputError("analyze", "give exactly one of --kernel or --trace");
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  models::Arch arch = models::load_arch(vm["arch"].as<std::string>(), overrides);
  const std::uint64_t block = unsigned_option(vm, "block");

  std::vector<Named> rows;
  auto analyse = [&](traces::KernelSource& source, const std::string& name) {
    if (block >= source.info().grid.count())
      throw sim::InputError("--block", "block " + std::to_string(block) + " is outside the grid of " + name + " (" +
                                           std::to_string(source.info().grid.count()) + " blocks)");
    // Blocks are read in order: skip to the one asked for.
    for (std::uint64_t b = 0; b < block; ++b) source.open_block(b);
    rows.push_back({name, analysis::analyze_block(arch, source, block)});
  };
  if (vm.count("kernel")) {
    std::vector<std::string> params;
    if (vm.count("param")) params = vm["param"].as<std::vector<std::string>>();
    auto k = traces::kernels::make_kernel(vm["kernel"].as<std::string>(), params, traces::IsaTarget{arch.gpu.sm_version});
    analyse(*k.source, vm["kernel"].as<std::string>());
  } else {
    traces::Workload workload = traces::open_workload(vm["trace"].as<std::string>());
    for (auto& step : workload.steps)
      if (step.kind == traces::WorkloadStep::Kind::Launch) {
        auto source = step.launch.open();
        analyse(*source, step.launch.label);
      }
  }
  print(rows, arch.preset, block, vm["json"].as<bool>());
  return kExitOk;
}

}  // namespace warpsim::cli
