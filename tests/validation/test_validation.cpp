// The built-in validation tables, run as tests: every row within the tolerance its table states,
// except the known gaps listed here with their reason (a gap that closes fails the test too, so
// the list stays true). `warpsim validate` reports the same rows to users.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/validation/reference_data.hpp"
#include "analysis/validation/validation.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The writeOffset rows whose L1 hit rate the model does not meet: where a warp's stores split
// lines with its neighbour's (l1.stores_allocate), measured 13.4-15.1% (H200 13.3-15.0%),
// simulated 15.6-24.3%. The second of two neighbouring warps to store hits the line the first
// allocated; the model's warps of a block store in launch order (offset 1: the lower warp first at
// 84% of boundaries, 4 hits, the other order 1), where ncu's rows fit either order at even odds
// (offsets 1, 8 and 16 give 1.95, 1.61 and 1.64 hits a warp: 47% lower-first). See the README's
// known gaps.
std::set<std::string> split_store_rows(const std::string& quantity) {
  std::set<std::string> out;
  for (const char* offset : {"1", "2", "4", "8", "11", "16"})
    out.insert(std::string("writeOffset lg=20;bs=512;offset=") + offset + " " + quantity);
  return out;
}

// Rows known not to meet their tolerance yet, by table, and why.
std::set<std::string> known_gaps(const std::string& table) {
  if (table == "fermi-s5")
    // Fermi's misaligned stores: measured 1.37, simulated 1.08. The ECC fill of partial sectors
    // (l2.fill_partial_writes) adds their DRAM reads, but the model's Fermi is bound by the L2
    // slice port (110 GB/s), where a fill costs nothing. S5's ratios together point at a
    // DRAM-bound Fermi (ECC-derated) with whole-line fills and a slower L2-to-SM load return;
    // see the README's known gaps.
    return {"writeOffset time offset 11 / offset 0"};
  if (table == "h100-counters") return split_store_rows("l1_hit_rate");
  if (table == "h200-counters") {
    auto gaps = split_store_rows("l1_hit_rate");
    // Store sectors of the same misaligned rows: the stores touch 163,839 sectors at offsets 1, 2
    // and 4, 163,838 at 11, 131,071 at 8 and 131,070 at 16, as the model and the earlier H100
    // measurement (data/offset.csv) count them; the Nsight Compute of calibrate's runs (2025.3.1)
    // counted 0.02-0.6% more or fewer, on the H100 too (h100-measured/offset.csv: 163,299 to
    // 163,908 at offsets 1-11), where the aligned rows stay exact.
    for (const auto& q : split_store_rows("gst_sectors")) gaps.insert(q);
    // hopper-h200's l2.bytes_per_cycle_per_slice is derived from the rate bandwidth.csv achieves
    // reading an L2-resident region (analysis/derive), hopper-h100's is the L2-to-crossbar peak
    // (h100-measured/stride_full.csv), 70% above the achieved rate. With the lower slice rate the
    // model's n = 2^20 kernels run longer, kernel_start_ns (the mean residual) comes out 1.15 us
    // against the H100's 1.88, and the L2-light stride 64 row, 2.88 us measured, is 15% short.
    gaps.insert("stridedRead lg=20;bs=256;stride=64 time_ns");
    return gaps;
  }
  return {};
}

void check_table(const std::string& name, bool quick) {
  analysis::ValidationOptions o;
  o.quick = quick;
  auto tables = analysis::run_validation(o, name);
  REQUIRE(tables.size() == 1);
  REQUIRE(!tables[0].rows.empty());
  const auto gaps = known_gaps(name);
  for (const auto& r : tables[0].rows) {
    INFO(name << ": " << r.quantity << " reference " << r.reference << " simulated " << r.simulated << " tolerance "
              << r.tolerance.describe());
    if (gaps.count(r.quantity))
      CHECK_FALSE(r.pass);
    else
      CHECK(r.pass);
  }
}

// The row of `t` for one kernel and parameter string (t.rows.size() if there is none).
std::size_t find_row(const analysis::CsvTable& t, const std::string& kernel, const std::string& params) {
  for (std::size_t i = 0; i < t.rows.size(); ++i)
    if (t.rows[i].at("kernel") == kernel && t.rows[i].at("params") == params) return i;
  return t.rows.size();
}

}  // namespace

TEST_CASE("shipped reference tables are byte-identical copies of the calibration data", "[validation]") {
  for (const char* f : {"offset.csv", "stride.csv", "persist_10MB.csv", "latency.csv", "dispatch.csv", "device.csv"}) {
    INFO(f);
    CHECK(slurp(analysis::validation_data_dir() / f) == slurp(test::shared_path(std::string("calibration/h100/") + f)));
  }
  // h100-apps: the whole corpus folder, file for file, and nothing else.
  const std::filesystem::path original = test::shared_path("calibration/h100/apps");
  const std::filesystem::path copy = analysis::validation_data_dir() / "h100-apps";
  std::set<std::string> originals, copies;
  for (const auto& e : std::filesystem::recursive_directory_iterator(original))
    if (e.is_regular_file()) originals.insert(std::filesystem::relative(e.path(), original).string());
  for (const auto& e : std::filesystem::recursive_directory_iterator(copy))
    if (e.is_regular_file()) copies.insert(std::filesystem::relative(e.path(), copy).string());
  CHECK(originals.size() == 172);  // 147 traces, 4 files a program, README.md
  CHECK(copies == originals);
  for (const auto& f : originals) {
    INFO(f);
    CHECK(slurp(copy / f) == slurp(original / f));
  }
}

TEST_CASE("the H200's calibration agrees with the device properties given with the project", "[validation]") {
  // data/h200/device.csv is calibrate's (more columns, provenance lines); the given file has the
  // columns of calibration/h100/device.csv. Every column they share holds the same value.
  const analysis::CsvTable given = analysis::read_csv(test::shared_path("calibration/h200/device.csv"));
  const analysis::CsvTable measured = analysis::read_csv(analysis::validation_data_dir() / "h200" / "device.csv");
  REQUIRE(given.rows.size() == 1);
  REQUIRE(measured.rows.size() == 1);
  for (const auto& column : given.columns) {
    INFO(column);
    CHECK(measured.rows[0].at(column) == given.rows[0].at(column));
  }
}

TEST_CASE("validation: H100 dependent-load latency per level within 5%", "[validation]") {
  check_table("h100-latency", false);
}

TEST_CASE("validation: H100 counters exact and times within 10% (n = 2^20 rows)", "[validation][slow]") {
  check_table("h100-counters", true);
}

TEST_CASE("validation: H100 verdicts agree with ncu's bound, utilisations within 10 points (n = 2^20 rows, apps)",
          "[validation][slow]") {
  // The n = 2^26 and persistKernel rows run in `warpsim validate`: the 14 persistKernel launches
  // (persist_10MB.csv, persist_breakdown.csv) mostly disagree there, the model's persistKernel being
  // 40-50% fast (README, known gaps), which puts its DRAM or L2 over 60% where the H100's stays
  // near 33%.
  check_table("h100-limiter", true);
}

TEST_CASE("validation: H100 empty-block dispatch timings within 25%", "[validation][slow]") {
  check_table("h100-dispatch", false);
}

TEST_CASE("validation: Fermi SPEC S5 efficiencies and time ratios", "[validation][slow]") {
  check_table("fermi-s5", false);
}

TEST_CASE("validation: H200 dependent-load latency per level within 5%", "[validation]") {
  check_table("h200-latency", false);
}

TEST_CASE("validation: H200 counters exact and times within 10% (n = 2^20 rows)", "[validation][slow]") {
  check_table("h200-counters", true);
}

TEST_CASE("validation: H200 empty-block dispatch timings within 25%", "[validation][slow]") {
  check_table("h200-dispatch", false);
}

TEST_CASE("validation: readOffset at n = 2^26 on H100: counters exact, time within 10%", "[validation][slow]") {
  // The full h100-counters table holds 30 such rows (warpsim validate runs them); the test suite
  // runs the offset-0 row to stay within its time budget.
  analysis::CsvTable t = analysis::read_csv(analysis::validation_data_dir() / "offset.csv");
  const std::size_t row = find_row(t, "readOffset", "lg=26;bs=512;offset=0");
  REQUIRE(row < t.rows.size());
  models::RunRequest r{"hopper-h100", {}, "readOffset", {"n=67108864", "block=512", "offset=0"}, "", 1};
  models::RunResult result = models::simulate(r);
  CHECK(double(result.warp_instructions) == t.number(row, "smsp__inst_executed.sum"));
  CHECK(analysis::RunCache::metric(result, "gld_sectors") == t.number(row, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  CHECK(analysis::RunCache::metric(result, "gst_sectors") == t.number(row, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
  CHECK(result.time_ms * 1e6 == Approx(t.number(row, "gpu__time_duration.sum")).epsilon(0.10));
  // Known gap (README): warps active per cycle, 0.78 simulated against ncu's 0.707. The time
  // matches because the kernel is bound by DRAM bandwidth; the h100-counters table reports the
  // row with its ±0.03 tolerance. When the gap closes this check fails: update the README too.
  const double ncu_occupancy = t.number(row, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100;
  CHECK(analysis::RunCache::metric(result, "achieved_occupancy") > ncu_occupancy + 0.03);
}

TEST_CASE("validation: stridedRead at n = 2^26 and stride 1 on H100 is the DRAM twin of persistKernel hitRatio 1.0",
          "[validation][slow]") {
  // A control for the persistKernel time gap (README, known gaps). This copy moves the same DRAM
  // traffic as persist_10MB.csv's hitRatio 1.0 rows (268 MB read, 252 MB written against 278 and
  // 269 MB: a 1:1 mix) and the H100 ran it in 222.5 us, against 511-515 us for persistKernel.
  // The DRAM model reproduces it; a fix for persistKernel that slows the DRAM for this mix would
  // break this check, so whatever holds persistKernel back has to be specific to that kernel.
  analysis::CsvTable t = analysis::read_csv(analysis::validation_data_dir() / "stride.csv");
  const std::size_t row = find_row(t, "stridedRead", "lg=26;bs=256;stride=1");
  REQUIRE(row < t.rows.size());
  models::RunRequest r{"hopper-h100", {}, "stridedRead", {"n=67108864", "block=256", "stride=1"}, "", 1};
  models::RunResult result = models::simulate(r);
  CHECK(analysis::RunCache::metric(result, "dram_read_bytes") ==
        Approx(t.number(row, "dram__bytes_read.sum")).epsilon(0.05));
  CHECK(analysis::RunCache::metric(result, "dram_write_bytes") ==
        Approx(t.number(row, "dram__bytes_write.sum")).epsilon(0.05));
  CHECK(result.time_ms * 1e6 == Approx(t.number(row, "gpu__time_duration.sum")).epsilon(0.10));
}
