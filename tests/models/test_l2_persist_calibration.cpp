// persistKernel under seven L2 policies (calibration/h100/persist_10MB.csv), scaled down 16x
// so the test runs in a couple of seconds: L2 50 MB -> 3.125 MB, persisting maximum and the
// default set-aside likewise, the 10 MB persistent region -> 640 KB, the 256 MB streaming
// region -> 16 MB. Every ratio that matters (persistent region / set-aside / L2 / streaming
// traffic) is kept, so hit rates compare directly and DRAM bytes compare after x16.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/arch.hpp"
#include "models/memory/memory_system.hpp"
#include "sim/stats.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

struct Row {
  double hit_ratio;  // < 0: no window
  double l2_hit_pct, dram_read, dram_write;
};

std::vector<Row> read_rows() {
  std::ifstream in(test::shared_path("calibration/h100/persist_10MB.csv"));
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  {
    std::stringstream s(line);
    std::string h;
    while (std::getline(s, h, ',')) header.push_back(h);
  }
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    FAIL("no column " << name);
    return std::size_t{0};
  };
  const std::size_t params = column("params"), l2 = column("lts__t_sector_hit_rate.pct"),
                    dram = column("dram__bytes_read.sum"), dram_w = column("dram__bytes_write.sum");
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string c;
    while (std::getline(s, c, ',')) cells.push_back(c);
    const std::string& p = cells[params];  // persistMB=10;hitRatio=0.250;window=1
    const double ratio = std::stod(p.substr(p.find("hitRatio=") + 9));
    const bool window = p.find("window=1") != std::string::npos;
    rows.push_back({window ? ratio : -1.0, std::stod(cells[l2]), std::stod(cells[dram]),
                    std::stod(cells[dram_w])});
  }
  return rows;
}

}  // namespace

TEST_CASE("persist_10MB.csv: persistKernel's L2 hit rate and DRAM reads and writes follow hitRatio", "[memory][l2][calibration]") {
  constexpr std::uint64_t kScale = 16;
  Arch arch = load_arch("hopper-h100");
  arch.l2.size_bytes /= kScale;
  arch.l2.slices = 16;
  arch.l2.persist_max_bytes /= kScale;
  const std::uint64_t persistent = 1ull << 32, streaming = 2ull << 32;
  const std::uint64_t freq = (10ull << 20) / 4 / kScale, data = (256ull << 20) / 4 / kScale;  // ints
  const std::uint32_t block = 1024;
  double previous_hit = -1;
  int rows = 0;
  for (const Row& row : read_rows()) {
    sim::StatsRegistry stats;
    auto mem = make_memory_system(memory_system_specs(arch), stats, 1);  // ncu flushes caches before it measures
    traces::KernelInfo info;
    info.set_aside_bytes = traces::KernelInfo::kLargestSetAside;  // as kernels.cu sets it, window or not
    if (row.hit_ratio >= 0) {
      info.window.base = persistent;
      info.window.bytes = freq * 4;
      info.window.hit_ratio = row.hit_ratio;
      info.window.hit_prop = traces::AccessProperty::Persisting;
      info.window.miss_prop = traces::AccessProperty::Streaming;
    }
    mem->begin_kernel(0, info);
    traces::Instruction inst;
    inst.unit = traces::Unit::LdSt;
    inst.space = traces::MemSpace::Global;
    inst.width = 4;
    sim::Cycle now = 0;
    for (std::uint64_t warp = 0; warp < data / 32; ++warp) {
      const auto sm = static_cast<std::uint32_t>(warp * 32 / block % arch.gpu.sms);
      // persistent[tid % freq] = 2 * persistent[tid % freq]; streaming[tid % data] = 2 * ...
      for (int k = 0; k < 4; ++k) {
        inst.mem_op = k % 2 == 0 ? traces::MemOp::Load : traces::MemOp::Store;
        for (int l = 0; l < 32; ++l) {
          const std::uint64_t tid = warp * 32 + static_cast<std::uint64_t>(l);
          inst.addr[static_cast<std::size_t>(l)] = k < 2 ? persistent + 4 * (tid % freq) : streaming + 4 * (tid % data);
        }
        mem->access(sm, 0, inst, now);
      }
      now += 1;
    }
    mem->end_kernel(0);
    const MemoryCounters& c = mem->counters();
    const double hit = 100.0 * c.l2_sector_hits / c.l2_sector_lookups;
    const double dram = double(c.dram_read_bytes * kScale), written = double(c.dram_write_bytes * kScale);
    std::printf("persistKernel %-12s L2 hit%% model %6.2f ncu %6.2f   DRAM read (x16) model %6.1f MB ncu %6.1f MB"
                "   write model %6.1f MB ncu %6.1f MB\n",
                row.hit_ratio < 0 ? "no window" : ("hitRatio " + std::to_string(row.hit_ratio).substr(0, 4)).c_str(),
                hit, row.l2_hit_pct, dram / (1 << 20), row.dram_read / (1 << 20), written / (1 << 20),
                row.dram_write / (1 << 20));
    INFO("hitRatio " << row.hit_ratio);
    // Tolerances: 7 points of hit rate (the model's L2 has no second partition and ncu's rate at
    // lg=20 is 5 points above ours for a plain stream, see offset.csv), 10% of DRAM bytes.
    CHECK(hit == Approx(row.l2_hit_pct).margin(7));
    CHECK(dram == Approx(row.dram_read).epsilon(0.10));
    // DRAM writes within 5%: without a window every store sweep over the hot region reaches DRAM
    // (536.5 MB) although its reads hit; with hitRatio 1.0 only the streamed stores do (268.9 MB).
    // l2.dirty_lines_per_set does it (l2_cache.hpp); write-back on eviction alone gives 244 MB
    // (x16) without a window, 52% low.
    CHECK(written == Approx(row.dram_write).epsilon(0.05));
    if (row.hit_ratio >= 0) {
      CHECK(hit >= previous_hit);  // more persisting -> more hits (S4.3)
      previous_hit = hit;
    }
    ++rows;
  }
  CHECK(rows == 7);
}
