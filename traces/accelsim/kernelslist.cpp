#include "traces/accelsim/kernelslist.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/errors.hpp"
#include "traces/accelsim/field_cursor.hpp"
#include "traces/accelsim/line_reader.hpp"
#include "traces/accelsim/traceg_kernel_source.hpp"
#include "sim/text.hpp"

namespace warpsim::traces::accelsim {
namespace fs = std::filesystem;
using sim::InputError;

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

LaunchStep launch_of(const std::string& file, const std::string& label, std::shared_ptr<ReadAheadTurns> turns) {
  LaunchStep launch;
  launch.label = label;
  launch.open = [file, turns]() -> std::unique_ptr<KernelSource> { return std::make_unique<TracegKernelSource>(file, turns); };
  return launch;
}

// "MemcpyHtoD,0x<hex>,<bytes>"
MemcpyStep parse_memcpy(std::string_view line) {
  std::string_view rest = line.substr(std::string_view("MemcpyHtoD").size());
  if (rest.empty() || rest.front() != ',') throw LineError("expected 'MemcpyHtoD,0x<address>,<bytes>'");
  rest.remove_prefix(1);
  std::size_t comma = rest.find(',');
  if (comma == std::string_view::npos) throw LineError("expected 'MemcpyHtoD,0x<address>,<bytes>'");
  MemcpyStep step;
  step.device_address = parse_hex(sim::trim(rest.substr(0, comma)), "MemcpyHtoD address");
  step.bytes = parse_unsigned_decimal(sim::trim(rest.substr(comma + 1)), "MemcpyHtoD size");
  // The copy lands in [address, address + bytes): it must not run past the end of the 64-bit space.
  if (step.bytes > ~std::uint64_t{0} - step.device_address)
    throw LineError("MemcpyHtoD of " + std::to_string(step.bytes) + " bytes at " +
                    std::string(sim::trim(rest.substr(0, comma))) + " runs past the end of the 64-bit address space");
  return step;
}

}  // namespace

Workload read_kernelslist(const std::string& path) {
  LineReader lines(path);
  fs::path dir = fs::path(path).parent_path();
  Workload w;
  w.name = fs::absolute(path).parent_path().filename().string();
  auto turns = std::make_shared<ReadAheadTurns>();  // the launches read ahead in turn
  std::string_view line;
  while (lines.next(line)) {
    line = sim::trim(line);
    if (line.empty()) continue;
    if (line.substr(0, 10) == "MemcpyHtoD") {
      WorkloadStep step{WorkloadStep::Kind::Memcpy, {}, {}};
      try {
        step.memcpy = parse_memcpy(line);
      } catch (const LineError& e) {
        throw InputError(lines.where(), e.what());
      }
      w.steps.push_back(std::move(step));
    } else if (line.substr(0, 6) == "kernel") {
      std::string name(line);
      if (!ends_with(name, ".traceg") && !ends_with(name, ".traceg.xz"))
        throw InputError(lines.where(), "kernel trace '" + name + "' is neither .traceg nor .traceg.xz");
      fs::path file = dir / name;
      // Traces are often stored compressed while kernelslist.g keeps the names the tracer wrote
      // (post-traces-processing, then xz): X.traceg is read from X.traceg.xz when only that exists.
      if (!fs::is_regular_file(file) && ends_with(name, ".traceg")) {
        fs::path compressed = dir / (name + ".xz");
        if (fs::is_regular_file(compressed)) file = compressed;
      }
      if (!fs::is_regular_file(file))
        throw InputError(lines.where(), "kernel trace file '" + name + "' not found (looked for " + file.string() +
                                            (ends_with(name, ".traceg") ? " and " + file.string() + ".xz)" : ")"));
      w.steps.push_back(WorkloadStep{WorkloadStep::Kind::Launch, {}, launch_of(file.string(), name, turns)});
    }
    // Every other line is ignored, as Accel-Sim does (FORMAT.md section 1).
  }
  // Accel-Sim would run such a list and report nothing; a list without a launch is the wrong file.
  const bool launches = std::any_of(w.steps.begin(), w.steps.end(),
                                    [](const WorkloadStep& s) { return s.kind == WorkloadStep::Kind::Launch; });
  if (!launches) throw InputError(path, "no kernel launch in the list (no line starting with 'kernel')");
  return w;
}

Workload single_traceg_workload(const std::string& path) {
  if (!fs::is_regular_file(path)) throw InputError(path, "no such file");
  Workload w;
  w.name = fs::path(path).filename().string();
  w.steps.push_back(WorkloadStep{WorkloadStep::Kind::Launch, {}, launch_of(path, w.name, nullptr)});
  return w;
}

}  // namespace warpsim::traces::accelsim
