// Accesses per second through MemorySystem::access() for a streaming pattern: every warp loads
// 128 coalesced bytes from two arrays and stores 128 bytes (readOffset's shape), from all SMs,
// on each preset. The simulator targets >= 10 M warp instructions per second on one core, and a
// streaming kernel's memory instructions are about a third of them, so access() must sustain
// well over 3 M per second.
#include <ctime>
#include <cstdio>
#include <string>

#include "models/arch.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/stats.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

double bench(const std::string& preset, traces::CacheOp cache, std::uint64_t warps, std::uint64_t& checksum) {
  const Arch arch = load_arch(preset);
  sim::StatsRegistry stats;
  auto mem = make_memory_system(memory_system_specs(arch), stats, 1);
  mem->begin_kernel(0, traces::KernelInfo{});
  traces::Instruction inst;
  inst.unit = traces::Unit::LdSt;
  inst.space = traces::MemSpace::Global;
  inst.width = 4;
  const std::uint64_t a = 1ull << 32, b = a + (1ull << 30), c = b + (1ull << 30);
  // CPU time of this thread, not wall time: the build machine is shared, and a benchmark of
  // simulator speed should not depend on what else runs.
  auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  };
  const double start = cpu_seconds();
  sim::Cycle now = 0;
  for (std::uint64_t w = 0; w < warps; ++w) {
    const std::uint32_t sm = static_cast<std::uint32_t>(w % arch.gpu.sms);
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t base = (k == 0 ? a : k == 1 ? b : c) + w * 128;
      inst.mem_op = k == 2 ? traces::MemOp::Store : traces::MemOp::Load;
      inst.cache_op = k == 2 ? traces::CacheOp::Default : cache;
      for (int l = 0; l < 32; ++l) inst.addr[static_cast<std::size_t>(l)] = base + 4u * l;
      checksum += mem->access(sm, 0, inst, now).ready;
    }
    now += (w & 7) == 7;
  }
  const double seconds = cpu_seconds() - start;
  return static_cast<double>(warps * 3) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  // bench_memory [WARPS [PRESET]]
  const std::uint64_t warps = argc > 1 ? std::stoull(argv[1]) : 2'000'000;
  const std::string only = argc > 2 ? argv[2] : "";
  std::uint64_t checksum = 0;
  std::printf("%-14s %-8s %14s   (per CPU second of this thread)\n", "preset", "loads", "accesses/s");
  for (const char* preset : {"hopper-h100", "kepler-k20x", "fermi-m2070"}) {
    if (!only.empty() && only != preset) continue;
    for (auto [name, op] : {std::pair{"default", traces::CacheOp::Default}, std::pair{".cg", traces::CacheOp::Global}}) {
      const double rate = bench(preset, op, warps, checksum);
      std::printf("%-14s %-8s %14.3e\n", preset, name, rate);
    }
  }
  std::printf("(checksum %llu)\n", static_cast<unsigned long long>(checksum));
  return 0;
}
