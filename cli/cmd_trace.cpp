// warpsim trace info PATH | trace convert IN OUT: inspect Accel-Sim and .wtrace traces, and
// convert any of them to .wtrace. See CONTRACT.md.
#include <iostream>
#include <sstream>

#include "cli/options.hpp"
#include "models/arch.hpp"
#include "traces/kernels/library.hpp"
#include "sim/errors.hpp"
#include "sim/output_file.hpp"
#include "sim/json.hpp"
#include "traces/open_workload.hpp"
#include "traces/wtrace/wtrace_writer.hpp"

namespace warpsim::cli {
namespace {

// (GCC 12 warns falsely (-Wrestrict) about chains of std::string operator+, hence the stream.)
std::string dim_text(const traces::Dim3& d) {
  std::ostringstream s;
  s << '(' << d.x << ',' << d.y << ',' << d.z << ')';
  return s.str();
}
std::string dim_json(const traces::Dim3& d) {
  std::ostringstream s;
  s << '[' << d.x << ", " << d.y << ", " << d.z << ']';
  return s.str();
}

void print_info_text(const traces::WorkloadSummary& s) {
  std::uint64_t instructions = 0, memory = 0;
  std::cout << "workload " << s.name << ": " << s.kernels.size() << " kernel launch" << (s.kernels.size() == 1 ? "" : "es") << ", "
            << s.memcpy_steps << " MemcpyHtoD (" << s.memcpy_bytes << " bytes)\n";
  for (const auto& k : s.kernels) {
    std::cout << "\n" << k.label << "  " << k.info.name << "\n"
              << "  grid x block      " << k.info.grid.count() << " x " << k.info.block.count() << "  (grid " << dim_text(k.info.grid)
              << ", block " << dim_text(k.info.block) << ")\n"
              << "  blocks traced     " << k.blocks_traced << "\n"
              << "  instructions      " << k.instructions << "\n"
              << "  memory instr.     " << k.memory_instructions << "\n"
              << "  registers/thread  " << k.info.registers_per_thread << ", shared bytes/block " << k.info.shared_bytes_per_block
              << "\n"
              << "  source            " << (k.origin.format.empty() ? "?" : k.origin.format);
    if (!k.origin.tracer_version.empty()) std::cout << ", tracer version " << k.origin.tracer_version;
    if (k.origin.binary_version) std::cout << ", binary version " << k.origin.binary_version;
    std::cout << '\n';
    for (const auto& w : k.warnings) std::cout << "  warning: " << w << '\n';
    instructions += k.instructions;
    memory += k.memory_instructions;
  }
  std::cout << "\ntotal: " << instructions << " instructions, " << memory << " memory instructions\n";
}

void print_info_json(const traces::WorkloadSummary& s) {
  std::uint64_t instructions = 0, memory = 0;
  std::cout << "{\"workload\": " << sim::json_quote(s.name) << ", \"memcpy_steps\": " << s.memcpy_steps
            << ", \"memcpy_bytes\": " << s.memcpy_bytes << ", \"kernels\": [";
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    const auto& k = s.kernels[i];
    std::cout << (i ? ", " : "") << "{\"label\": " << sim::json_quote(k.label) << ", \"name\": " << sim::json_quote(k.info.name)
              << ", \"grid\": " << dim_json(k.info.grid) << ", \"block\": " << dim_json(k.info.block)
              << ", \"blocks\": " << k.info.grid.count() << ", \"threads_per_block\": " << k.info.block.count()
              << ", \"blocks_traced\": " << k.blocks_traced << ", \"instructions\": " << k.instructions
              << ", \"memory_instructions\": " << k.memory_instructions << ", \"registers_per_thread\": " << k.info.registers_per_thread
              << ", \"shared_bytes_per_block\": " << k.info.shared_bytes_per_block << ", \"format\": " << sim::json_quote(k.origin.format)
              << ", \"tracer_version\": " << sim::json_quote(k.origin.tracer_version)
              << ", \"binary_version\": " << k.origin.binary_version << ", \"warnings\": [";
    for (std::size_t j = 0; j < k.warnings.size(); ++j) std::cout << (j ? ", " : "") << sim::json_quote(k.warnings[j]);
    std::cout << "]}";
    instructions += k.instructions;
    memory += k.memory_instructions;
  }
  std::cout << "], \"instructions\": " << instructions << ", \"memory_instructions\": " << memory << "}\n";
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int cmd_trace(const Args& args) {
  const char* usage =
      "trace info PATH [--json] | trace convert IN OUT.wtrace\n"
      "       warpsim trace convert --kernel KERNEL [-p key=value]... [--arch ARCH] OUT.wtrace\n\n"
      "PATH and IN: a kernelslist.g (or its directory), a .traceg, a .traceg.xz or a .wtrace.\n"
      "convert writes the whole workload (MemcpyHtoD steps and every launch) into one .wtrace;\n"
      "with --kernel it records a library kernel as ARCH's SASS would run it (default hopper-h100).";
  po::options_description options("trace options");
  options.add_options()("action", po::value<std::string>(), "info or convert")("path", po::value<std::string>(), "input trace")(
      "out", po::value<std::string>(), "output .wtrace for convert")("json", po::bool_switch(), "print JSON (info)")(
      "kernel", po::value<std::string>(), "convert: a library kernel instead of a trace")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "convert --kernel: kernel parameter key=value")(
      "arch", po::value<std::string>()->default_value("hopper-h100"), "convert --kernel: whose SASS to record");
  po::positional_options_description positional;
  positional.add("action", 1).add("path", 1).add("out", 1);
  po::variables_map vm;
  if (!parse_options("trace", usage, options, positional, args, vm)) return kExitOk;
  std::string action = vm.count("action") ? vm["action"].as<std::string>() : "";
  if (action == "info" && vm.count("path") && !vm.count("out")) {
    traces::Workload w = traces::open_workload(vm["path"].as<std::string>());
    traces::WorkloadSummary s = traces::summarize_workload(w);
    if (vm["json"].as<bool>()) print_info_json(s);
    else print_info_text(s);
    return kExitOk;
  }
  if (action == "convert" && vm.count("kernel") && vm.count("path") && !vm.count("out")) {
    std::string out = vm["path"].as<std::string>();
    if (!ends_with(out, ".wtrace")) throw sim::InputError(out, "the output of trace convert must end in .wtrace");
    sim::check_output_file(out, "trace convert");
    std::vector<std::string> params;
    if (vm.count("param")) params = vm["param"].as<std::vector<std::string>>();
    const models::Arch arch = models::load_arch(vm["arch"].as<std::string>());
    const std::string name = vm["kernel"].as<std::string>();
    auto k = traces::kernels::make_kernel(name, params, traces::IsaTarget{arch.gpu.sm_version});
    auto s = traces::wtrace::write_wtrace(*k.source, name, out);
    std::cerr << "wrote " << out << ": " << name << ", " << s.blocks << " blocks, " << s.instructions << " instructions, "
              << s.bytes << " bytes\n";
    return kExitOk;
  }
  if (action == "convert" && vm.count("path") && vm.count("out")) {
    std::string out = vm["out"].as<std::string>();
    if (!ends_with(out, ".wtrace")) throw sim::InputError(out, "the output of trace convert must end in .wtrace");
    sim::check_output_file(out, "trace convert");
    traces::Workload w = traces::open_workload(vm["path"].as<std::string>());
    auto s = traces::wtrace::write_wtrace(w, out);
    std::cerr << "wrote " << out << ": " << s.kernels << " kernel(s), " << s.blocks << " blocks, " << s.instructions
              << " instructions, " << s.bytes << " bytes\n";
    return kExitOk;
  }
  std::cerr << "usage: warpsim " << usage << '\n';
  return kExitInputError;
}

}  // namespace warpsim::cli
