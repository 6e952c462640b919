#include "traces/open_workload.hpp"

#include <filesystem>

#include "sim/errors.hpp"
#include "traces/accelsim/kernelslist.hpp"
#include "traces/wtrace/wtrace_reader.hpp"

namespace warpsim::traces {
namespace fs = std::filesystem;

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

Workload open_workload(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    fs::path list = fs::path(path) / "kernelslist.g";
    if (!fs::is_regular_file(list, ec)) throw sim::InputError(path, "directory has no kernelslist.g");
    return accelsim::read_kernelslist(list.string());
  }
  if (!fs::exists(path, ec)) throw sim::InputError(path, "no such file or directory");
  if (ends_with(path, ".traceg") || ends_with(path, ".traceg.xz")) return accelsim::single_traceg_workload(path);
  if (ends_with(path, ".wtrace")) return wtrace::read_wtrace_workload(path);
  return accelsim::read_kernelslist(path);
}

KernelSummary summarize_kernel(KernelSource& source, const std::string& label) {
  KernelSummary s;
  s.label = label;
  s.info = source.info();
  if (auto* traced = dynamic_cast<TracedKernelSource*>(&source)) s.origin = traced->origin();
  Instruction inst;
  for_each_block(source, [&](std::uint64_t b) {
    auto warps = source.open_block(b);
    if (warps.empty()) return;
    ++s.blocks_traced;
    for (auto& w : warps)
      while (w->next(inst)) {
        ++s.instructions;
        if (inst.is_memory()) ++s.memory_instructions;
      }
  });
  s.warnings = source.warnings();
  return s;
}

WorkloadSummary summarize_workload(const Workload& workload) {
  WorkloadSummary s;
  s.name = workload.name;
  for (const auto& step : workload.steps) {
    if (step.kind == WorkloadStep::Kind::Memcpy) {
      ++s.memcpy_steps;
      s.memcpy_bytes += step.memcpy.bytes;
      continue;
    }
    auto source = step.launch.open();
    s.kernels.push_back(summarize_kernel(*source, step.launch.label));
  }
  return s;
}

}  // namespace warpsim::traces
