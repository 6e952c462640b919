// The library against the H100 counters: for every row of calibration/h100/offset.csv,
// stride.csv and persist_10MB.csv, build the kernel on sm_90 with that row's parameters, drain
// every warp of every block, and compare the totals with Nsight Compute's
// smsp__inst_executed.sum (exact) and the global load/store request counts
// (l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum: one request per warp-level global
// access with at least one active lane, for these 4-byte accesses; exact as well), and the
// 32-byte sectors those requests touch (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum:
// distinct sectors among the active lanes of one request), which checks every lane's address,
// the 2 MB-aligned buffer bases included.
// Expected numbers are read from the CSV files at test time, never copied here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.hpp"
#include "traces/kernels/library.hpp"

namespace {

using warpsim::traces::Instruction;
using warpsim::traces::MemOp;
using warpsim::traces::MemSpace;

struct Row {
  std::string kernel;
  std::map<std::string, std::string> params;  // the `params` column, split at ';' and '='
  std::map<std::string, std::string> counters;
};

std::vector<Row> read_csv(const std::string& file) {
  std::ifstream in(warpsim::test::shared_path("calibration/h100/" + file));
  REQUIRE(in);
  auto split = [](const std::string& line, char sep) {
    std::vector<std::string> out;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, sep);) out.push_back(cell);
    return out;
  };
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = split(line, ',');
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cells = split(line, ',');
    REQUIRE(cells.size() == header.size());
    Row r;
    for (std::size_t i = 0; i < header.size(); ++i) r.counters[header[i]] = cells[i];
    r.kernel = r.counters.at("kernel");
    for (const auto& kv : split(r.counters.at("params"), ';')) {
      auto eq = kv.find('=');
      r.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    rows.push_back(r);
  }
  return rows;
}

// The -p assignments that reproduce a row's launch (kernels.cu's main()).
std::vector<std::string> assignments(const Row& r) {
  std::vector<std::string> a;
  if (r.params.count("lg")) a.push_back("n=" + std::to_string(1ll << std::stoi(r.params.at("lg"))));
  if (r.params.count("bs")) a.push_back("block=" + r.params.at("bs"));
  if (r.params.count("offset")) a.push_back("offset=" + r.params.at("offset"));
  if (r.params.count("stride")) a.push_back("stride=" + r.params.at("stride"));
  if (r.params.count("persistMB")) {
    long long bytes = std::stoll(r.params.at("persistMB")) << 20;
    a.push_back("persist_bytes=" + std::to_string(bytes));
    if (r.params.at("window") == "1") {
      a.push_back("window_bytes=" + std::to_string(bytes));
      a.push_back("hit_ratio=" + r.params.at("hitRatio"));
    }
  }
  return a;
}

struct Totals {
  std::uint64_t instructions = 0, global_load_requests = 0, global_store_requests = 0;
  std::uint64_t global_load_sectors = 0, global_store_sectors = 0;
};

// Distinct 32-byte sectors touched by the active lanes of one access.
std::uint64_t sectors(const Instruction& inst) {
  std::array<std::uint64_t, 2 * warpsim::traces::kWarpSize> s;
  int n = 0;
  for (int lane = 0; lane < warpsim::traces::kWarpSize; ++lane)
    if (inst.active_mask >> lane & 1u) {
      s[n++] = inst.address(lane) >> 5;
      s[n++] = (inst.address(lane) + inst.width - 1) >> 5;
    }
  if (!std::is_sorted(s.begin(), s.begin() + n)) std::sort(s.begin(), s.begin() + n);
  return static_cast<std::uint64_t>(std::unique(s.begin(), s.begin() + n) - s.begin());
}

Totals drain(warpsim::traces::KernelSource& source) {
  Totals t;
  Instruction inst;
  std::uint64_t blocks = source.info().grid.count();
  for (std::uint64_t b = 0; b < blocks; ++b)
    for (auto& warp : source.open_block(b))
      while (warp->next(inst)) {
        ++t.instructions;
        if (inst.space == MemSpace::Global && inst.active_mask != 0) {
          if (inst.mem_op == MemOp::Load) ++t.global_load_requests, t.global_load_sectors += sectors(inst);
          if (inst.mem_op == MemOp::Store) ++t.global_store_requests, t.global_store_sectors += sectors(inst);
        }
      }
  return t;
}

void check_rows(const std::string& file, bool big) {
  int checked = 0;
  for (const Row& r : read_csv(file)) {
    bool is_big = r.params.count("lg") ? r.params.at("lg") != "20" : true;
    if (is_big != big) continue;
    auto instance = warpsim::traces::kernels::make_kernel(r.kernel, assignments(r), {90});
    Totals t = drain(*instance.source);
    INFO(file << ": " << r.kernel << " " << r.counters.at("params"));
    CHECK(t.instructions == std::stoull(r.counters.at("smsp__inst_executed.sum")));
    CHECK(t.global_load_requests == std::stoull(r.counters.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")));
    CHECK(t.global_store_requests == std::stoull(r.counters.at("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")));
    CHECK(t.global_load_sectors == std::stoull(r.counters.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")));
    CHECK(t.global_store_sectors == std::stoull(r.counters.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")));
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("offset.csv lg=20 rows: instructions, requests and sectors match the H100 exactly", "[kernels]") {
  check_rows("offset.csv", false);
}

TEST_CASE("stride.csv lg=20 rows: instructions, requests and sectors match the H100 exactly", "[kernels]") {
  check_rows("stride.csv", false);
}

TEST_CASE("offset.csv lg=26 rows: instructions, requests and sectors match the H100 exactly", "[kernels][slow]") {
  check_rows("offset.csv", true);
}

TEST_CASE("stride.csv lg=26 rows: instructions, requests and sectors match the H100 exactly", "[kernels][slow]") {
  check_rows("stride.csv", true);
}

TEST_CASE("persist_10MB.csv rows: instructions, requests and sectors match the H100 exactly", "[kernels][slow]") {
  check_rows("persist_10MB.csv", true);
}
