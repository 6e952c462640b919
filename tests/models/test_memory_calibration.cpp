// The Hopper memory system against the H100's Nsight Compute counters (calibration/h100/
// offset.csv and stride.csv, lg=20 rows). The address patterns of readOffset, readOffsetNC,
// writeOffset and stridedRead (calibration/kernels.cu) are built here, warp by warp, and run
// through access(); request and sector counts must match ncu exactly (they are counting rules:
// ncu counts one request per warp instruction with an active lane and every distinct 32-byte
// sector it touches). Hit rates are approximate; the tolerances are stated beside them.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <map>
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

struct CsvRow {
  std::map<std::string, std::string> field;
  std::map<std::string, long long> param;  // "lg=20;bs=512;offset=1"
  double number(const std::string& key) const { return std::stod(field.at(key)); }
};

std::vector<CsvRow> read_csv(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  auto split = [](const std::string& line, char sep) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string item;
    while (std::getline(s, item, sep)) out.push_back(item);
    return out;
  };
  std::string line;
  std::getline(in, line);
  const auto header = split(line, ',');
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto cells = split(line, ',');
    CsvRow row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row.field[header[i]] = cells[i];
    for (const auto& kv : split(row.field["params"], ';')) {
      const auto eq = kv.find('=');
      if (eq != std::string::npos) row.param[kv.substr(0, eq)] = std::stoll(kv.substr(eq + 1));
    }
    rows.push_back(row);
  }
  return rows;
}

constexpr std::uint64_t kA = 1ull << 32, kB = kA + (256ull << 20), kC = kB + (256ull << 20);

traces::Instruction global_access(traces::MemOp op, traces::CacheOp cache) {
  traces::Instruction inst;
  inst.unit = traces::Unit::LdSt;
  inst.space = traces::MemSpace::Global;
  inst.mem_op = op;
  inst.cache_op = cache;
  inst.width = 4;
  return inst;
}

struct Measured {
  MemoryCounters c;
  double l1_hit_pct() const { return c.l1_sector_lookups ? 100.0 * c.l1_sector_hits / c.l1_sector_lookups : 0; }
  double l2_hit_pct() const { return c.l2_sector_lookups ? 100.0 * c.l2_sector_hits / c.l2_sector_lookups : 0; }
};

// One kernel launch: block b runs on SM b % sms (the GigaThread engine's round robin), its warps
// in order, each warp's memory instructions in program order. `lanes(thread, inst)` gives each
// instruction's (active, address).
template <class Emit>
Measured run_kernel(const Arch& arch, std::uint64_t blocks, std::uint32_t block_size, int instructions_per_warp,
                    const std::vector<traces::Instruction>& templates, Emit lane) {
  sim::StatsRegistry stats;
  auto mem = make_memory_system(memory_system_specs(arch), stats, 1);
  mem->memcpy_to_device(kA, 3 * (256ull << 20));
  traces::KernelInfo info;
  mem->begin_kernel(0, info);
  sim::Cycle now = 0;
  const std::uint32_t warps = block_size / 32;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint32_t sm = static_cast<std::uint32_t>(b % arch.gpu.sms);
    for (std::uint32_t w = 0; w < warps; ++w) {
      for (int k = 0; k < instructions_per_warp; ++k) {
        traces::Instruction inst = templates[static_cast<std::size_t>(k)];
        inst.active_mask = 0;
        for (std::uint32_t l = 0; l < 32; ++l) {
          const std::uint64_t thread = b * block_size + w * 32 + l;
          std::uint64_t address = 0;
          if (lane(thread, k, address)) {
            inst.active_mask |= 1u << l;
            inst.addr[l] = address;
          }
        }
        mem->access(sm, 0, inst, now++);
      }
    }
  }
  mem->end_kernel(0);
  return Measured{mem->counters()};
}

void compare_counts(const CsvRow& row, const Measured& m) {
  INFO(row.field.at("case") << " " << row.field.at("params"));
  CHECK(m.c.gld_requests == row.number("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
  CHECK(m.c.gld_sectors == row.number("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  CHECK(m.c.gst_requests == row.number("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"));
  CHECK(m.c.gst_sectors == row.number("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
  // smsp__sass_average_data_bytes_per_sector: useful bytes / (sectors x 32); ncu prints 2 decimals.
  CHECK(100.0 * m.c.gld_bytes_requested / m.c.gld_bytes_moved ==
        Approx(row.number("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct")).margin(0.01));
  CHECK(100.0 * m.c.gst_bytes_requested / m.c.gst_bytes_moved ==
        Approx(row.number("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct")).margin(0.01));
  // DRAM bytes read: the inputs were copied to DRAM, not left in L2, so every input byte is read
  // once, in 64-byte pieces (stride 16/32/64 show the granularity). Tolerance 4 KB: ncu adds up to
  // 3 KB of other traffic (8391424 vs 8388608 at offset 0, 1051648 vs 1048576 at stride 64).
  CHECK(double(m.c.dram_read_bytes) == Approx(row.number("dram__bytes_read.sum")).margin(4096));
}

}  // namespace

TEST_CASE("offset.csv lg=20: requests and sectors of readOffset/readOffsetNC/writeOffset match ncu exactly",
          "[memory][calibration]") {
  const Arch arch = load_arch("hopper-h100");
  int rows_checked = 0;
  for (const CsvRow& row : read_csv(test::shared_path("calibration/h100/offset.csv"))) {
    if (row.param.at("lg") != 20) continue;
    const std::uint64_t n = 1ull << 20;
    const auto block = static_cast<std::uint32_t>(row.param.at("bs"));
    const std::uint64_t offset = static_cast<std::uint64_t>(row.param.at("offset"));
    const std::uint64_t grid = (n + block - 1) / block;
    const std::string kernel = row.field.at("case");
    const bool write_offset = kernel == "writeOffset";
    const auto cache = kernel == "readOffsetNC" ? traces::CacheOp::Global : traces::CacheOp::Default;
    // readOffset: C[i] = A[k] + B[k]; writeOffset: C[k] = A[i] + B[i]; k = i + offset, if (k < n).
    const std::vector<traces::Instruction> program = {global_access(traces::MemOp::Load, cache),
                                                      global_access(traces::MemOp::Load, cache),
                                                      global_access(traces::MemOp::Store, traces::CacheOp::Default)};
    const Measured m = run_kernel(arch, grid, block, 3, program, [&](std::uint64_t i, int k, std::uint64_t& address) {
      const std::uint64_t j = i + offset;
      if (j >= n) return false;
      const std::uint64_t load_index = write_offset ? i : j, store_index = write_offset ? j : i;
      address = k == 0 ? kA + 4 * load_index : k == 1 ? kB + 4 * load_index : kC + 4 * store_index;
      return true;
    });
    compare_counts(row, m);
    ++rows_checked;
    // L1 sector hit rate (ncu counts store sectors as L1 lookups that miss). Tolerance 0.5
    // points: the model hits exactly the sectors a neighbouring warp of the same block already
    // requested (in flight or present); ncu's 13.39% for readOffset offset 1 is that count,
    // 2 x 15 x 2048 / (327678 + 131072) = 13.393%. Stores in writeOffset allocate their lines
    // (l1.stores_allocate) and a store sector hits when its line is resident: none at line-aligned
    // offsets (0 in ncu too); at misaligned ones, here, where each warp runs before the next, the
    // most there can be: warp w+1's first line is the one w's last sector allocated, and its
    // 4 - (offset % 32) / 8 sectors there all hit, at each of a block's 15 warp boundaries
    // (offset 1: 4 x 15 x 2048 / 425983 = 28.85%). ncu's 13-15% is below: on the H100
    // neighbouring warps race (validation table h100-counters, README).
    const double ncu_l1 = row.number("l1tex__t_sector_hit_rate.pct");
    std::printf("%-13s offset %3llu  L1 hit%% model %6.2f ncu %6.2f   L2 hit%% model %6.2f ncu %6.2f\n",
                kernel.c_str(), static_cast<unsigned long long>(offset), m.l1_hit_pct(), ncu_l1, m.l2_hit_pct(),
                row.number("lts__t_sector_hit_rate.pct"));
    if (!write_offset)
      CHECK(m.l1_hit_pct() == Approx(ncu_l1).margin(0.5));
    else
      CHECK(m.c.l1_sector_hits == (offset % 32 == 0 ? 0 : (4 - offset % 32 / 8) * (block / 32 - 1) * grid));
  }
  CHECK(rows_checked == 30);
}

TEST_CASE("stride.csv lg=20: stridedRead requests and sectors match ncu exactly", "[memory][calibration]") {
  const Arch arch = load_arch("hopper-h100");
  int rows_checked = 0;
  for (const CsvRow& row : read_csv(test::shared_path("calibration/h100/stride.csv"))) {
    if (row.param.at("lg") != 20) continue;
    const std::uint64_t n = 1ull << 20;
    const auto block = static_cast<std::uint32_t>(row.param.at("bs"));
    const std::uint64_t stride = static_cast<std::uint64_t>(row.param.at("stride"));
    const std::uint64_t m_threads = n / stride, grid = (m_threads + block - 1) / block;
    // out[i] = in[i * stride], if (i * stride < n).
    const std::vector<traces::Instruction> program = {global_access(traces::MemOp::Load, traces::CacheOp::Default),
                                                      global_access(traces::MemOp::Store, traces::CacheOp::Default)};
    const Measured m = run_kernel(arch, grid, block, 2, program, [&](std::uint64_t i, int k, std::uint64_t& address) {
      if (i * stride >= n) return false;
      address = k == 0 ? kA + 4 * i * stride : kC + 4 * i;
      return true;
    });
    compare_counts(row, m);
    ++rows_checked;
    std::printf("stridedRead   stride %3llu  L1 hit%% model %6.2f ncu %6.2f   L2 hit%% model %6.2f ncu %6.2f\n",
                static_cast<unsigned long long>(stride), m.l1_hit_pct(), row.number("l1tex__t_sector_hit_rate.pct"),
                m.l2_hit_pct(), row.number("lts__t_sector_hit_rate.pct"));
    CHECK(m.l1_hit_pct() == Approx(row.number("l1tex__t_sector_hit_rate.pct")).margin(0.5));
  }
  CHECK(rows_checked == 7);
}

TEST_CASE("S5 Fermi readSegment/writeSegment: efficiencies and the 2x transactions at offset 11", "[memory][calibration]") {
  // Tesla M2070, 2^20 floats, block 512 (S5 measured 2^24 for reads; the ratios do not depend on
  // n). Published: readOffset L1 on 100 / 49.81 / 100 % and gld_transactions doubling at offset
  // 11 (131039 / 65184 = 2.01, counted on a subset of SMs); L1 off 100 / 80 / 100 %; writeOffset
  // gst_efficiency 100 / 80 / 100 %. Tolerance 0.5 points on efficiencies, 2% on the ratio.
  const Arch arch = load_arch("fermi-m2070");
  const std::uint64_t n = 1ull << 20;
  const std::uint32_t block = 512;
  auto run = [&](std::uint64_t offset, traces::CacheOp cache, bool write_offset) {
    const std::vector<traces::Instruction> program = {global_access(traces::MemOp::Load, cache),
                                                      global_access(traces::MemOp::Load, cache),
                                                      global_access(traces::MemOp::Store, traces::CacheOp::Default)};
    return run_kernel(arch, n / block, block, 3, program, [&](std::uint64_t i, int k, std::uint64_t& address) {
      const std::uint64_t j = i + offset;
      if (j >= n) return false;
      const std::uint64_t load_index = write_offset ? i : j, store_index = write_offset ? j : i;
      address = k == 0 ? kA + 4 * load_index : k == 1 ? kB + 4 * load_index : kC + 4 * store_index;
      return true;
    });
  };
  auto pct = [](std::uint64_t a, std::uint64_t b) { return 100.0 * a / b; };
  const struct {
    std::uint64_t offset;
    double l1_on, l1_off, store;
  } published[] = {{0, 100, 100, 100}, {11, 49.81, 80, 80}, {128, 100, 100, 100}};
  std::uint64_t transactions_at_0 = 0;
  for (const auto& p : published) {
    INFO("offset " << p.offset);
    const Measured on = run(p.offset, traces::CacheOp::Default, false);
    const Measured off = run(p.offset, traces::CacheOp::Global, false);
    const Measured write = run(p.offset, traces::CacheOp::Default, true);
    CHECK(pct(on.c.gld_bytes_requested, on.c.gld_bytes_moved) == Approx(p.l1_on).margin(0.5));
    CHECK(pct(off.c.gld_bytes_requested, off.c.gld_bytes_moved) == Approx(p.l1_off).margin(0.5));
    CHECK(pct(write.c.gst_bytes_requested, write.c.gst_bytes_moved) == Approx(p.store).margin(0.5));
    if (p.offset == 0) transactions_at_0 = on.c.gld_transactions;
    if (p.offset == 11) CHECK(double(on.c.gld_transactions) / transactions_at_0 == Approx(131039.0 / 65184).epsilon(0.02));
  }
}

TEST_CASE("offset.csv lg=26, scaled 16x: DRAM reads and write-backs of readOffset/writeOffset", "[memory][calibration]") {
  // 2^26 floats do not fit the 50 MB L2: stores are written back to DRAM, and what is still
  // dirty in L2 when the kernel ends is not counted (ncu: 246 MiB of 256 MiB stored). The L2
  // keeps at most l2.dirty_lines_per_set = 3 dirty lines a set (l2_cache.hpp), so 3 x 128 B x
  // 25,600 sets = 9.4 MiB stays dirty: 246.6 MiB written. Write-back on eviction alone would
  // leave a third of the L2 dirty and write 240 MiB (-2.6%). Scaled 16x (L2 3.125 MB,
  // n = 2^22) to keep the test fast; bytes compare after x16. Tolerance 1%.
  constexpr std::uint64_t kScale = 16;
  Arch arch = load_arch("hopper-h100");
  arch.l2.size_bytes /= kScale;
  arch.l2.slices = 16;
  int rows_checked = 0;
  for (const CsvRow& row : read_csv(test::shared_path("calibration/h100/offset.csv"))) {
    if (row.param.at("lg") != 26 || (row.param.at("offset") != 0 && row.param.at("offset") != 1)) continue;
    if (row.field.at("case") == "readOffsetNC") continue;
    const std::uint64_t n = (1ull << 26) / kScale, offset = static_cast<std::uint64_t>(row.param.at("offset"));
    const std::uint32_t block = 512;
    const bool write_offset = row.field.at("case") == "writeOffset";
    const std::vector<traces::Instruction> program = {global_access(traces::MemOp::Load, traces::CacheOp::Default),
                                                      global_access(traces::MemOp::Load, traces::CacheOp::Default),
                                                      global_access(traces::MemOp::Store, traces::CacheOp::Default)};
    const Measured m = run_kernel(arch, n / block, block, 3, program, [&](std::uint64_t i, int k, std::uint64_t& address) {
      const std::uint64_t j = i + offset;
      if (j >= n) return false;
      const std::uint64_t load_index = write_offset ? i : j, store_index = write_offset ? j : i;
      address = k == 0 ? kA + 4 * load_index : k == 1 ? kB + 4 * load_index : kC + 4 * store_index;
      return true;
    });
    const double read = double(m.c.dram_read_bytes * kScale), written = double(m.c.dram_write_bytes * kScale);
    std::printf("%-12s lg=26 offset %llu: DRAM read (x16) model %.1f MiB ncu %.1f MiB, write model %.1f MiB ncu %.1f "
                "MiB\n",
                row.field.at("case").c_str(), static_cast<unsigned long long>(offset), read / (1 << 20),
                row.number("dram__bytes_read.sum") / (1 << 20), written / (1 << 20),
                row.number("dram__bytes_write.sum") / (1 << 20));
    INFO(row.field.at("case") << " " << row.field.at("params"));
    CHECK(read == Approx(row.number("dram__bytes_read.sum")).epsilon(0.01));
    CHECK(written == Approx(row.number("dram__bytes_write.sum")).epsilon(0.01));
    ++rows_checked;
  }
  CHECK(rows_checked == 4);
}
