// warpsim: a trace-driven discrete-event GPU performance simulator. This file only dispatches
// to subcommands and turns exceptions into the exit codes of CONTRACT.md.
#include <boost/program_options/errors.hpp>
#include <cstring>
#include <exception>
#include <iostream>

#include "cli/command.hpp"
#include "sim/errors.hpp"
#include "sim/heap_start.hpp"
#include "sim/version.hpp"

namespace warpsim::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "run --arch ARCH (--kernel KERNEL [-p key=value]... | --trace PATH) [--set key=value]... [--json]",
       "simulate one kernel or trace and print its cycles, time and metrics", cmd_run},
      {"sweep", "sweep SPEC.ini [-o OUT.h5] [-j N] [--shard I/N] | sweep merge OUT.h5 SHARD.h5... | sweep slurm SPEC.ini",
       "run a design-space sweep in parallel and write HDF5 results", cmd_sweep},
      {"report", "report RESULTS.h5 [--json]", "summarise a sweep: best and worst points, sensitivity per axis",
       cmd_report},
      {"arch", "arch list | arch show ARCH | arch derive CALIBRATION_DIR --from BASE [-o FILE]",
       "list the architecture presets, show every parameter of one, or derive one from a GPU's measurements",
       cmd_arch},
      {"kernels", "kernels", "list the kernel library with each kernel's parameters", cmd_kernels},
      {"trace", "trace info PATH | trace convert IN OUT", "inspect or convert Accel-Sim and .wtrace traces",
       cmd_trace},
      {"analyze", "analyze --arch ARCH (--kernel KERNEL [-p key=value]... | --trace PATH) [--json]",
       "dependency-graph analysis: critical path and ILP", cmd_analyze},
      {"validate", "validate [--table NAME] [--arch ARCH] [--quick] [--json] [--plot DIR]", "compare simulated results with the built-in published and measured tables",
       cmd_validate},
  };
  return table;
}

int not_built_yet(const char* name, const char* issue, const Args& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      for (const auto& c : commands())
        if (std::strcmp(c.name, name) == 0) std::cout << "usage: warpsim " << c.usage << "\n\n" << c.summary << "\n";
      return kExitOk;
    }
  std::cerr << "warpsim " << name << ": not built yet (tracked in issue " << issue << ")\n";
  return kExitInputError;
}

namespace {

void print_help(std::ostream& out) {
  out << "warpsim " << sim::kVersion << " - trace-driven discrete-event GPU performance simulator\n\n"
      << "usage: warpsim COMMAND [ARGS...]\n       warpsim COMMAND --help\n       warpsim --version\n\n"
      << "commands:\n";
  for (const auto& c : commands()) out << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << '\n';
  out << "\nExit codes: 0 success, 2 usage or input error, 3 internal failure.\n";
}

}  // namespace
}  // namespace warpsim::cli

int main(int argc, char** argv) {
  warpsim::sim::put_heap_start_on_huge_pages();  // before the commands allocate (sim/heap_start.hpp)
  using namespace warpsim::cli;
  if (argc < 2) {
    print_help(std::cerr);
    return kExitInputError;
  }
  std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(std::cout);
    return kExitOk;
  }
  if (first == "--version") {
    std::cout << "warpsim " << warpsim::sim::kVersion << " (git " << warpsim::sim::kGitCommit << ")\n";
    return kExitOk;
  }
  for (const auto& c : commands()) {
    if (first != c.name) continue;
    Args args(argv + 2, argv + argc);
    try {
      return c.main(args);
    } catch (const warpsim::sim::InputError& e) {
      std::cerr << "warpsim " << c.name << ": " << e.what() << '\n';
      return kExitInputError;
    } catch (const boost::program_options::error& e) {
      std::cerr << "warpsim " << c.name << ": " << e.what() << "\nusage: warpsim " << c.usage << '\n';
      return kExitInputError;
    } catch (const std::exception& e) {
      std::cerr << "warpsim " << c.name << ": internal error: " << e.what() << '\n';
      return kExitInternalError;
    }
  }
  std::cerr << "warpsim: unknown command '" << first << "'\n\n";
  print_help(std::cerr);
  return kExitInputError;
}
