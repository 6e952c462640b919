// warpsim run / analyze / validate / kernels through the executable: output forms and exit codes.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "models/simulate.hpp"
#include "tests/test_support.hpp"

using warpsim::test::run_warpsim;

TEST_CASE("run --json prints one object with the contract's fields", "[cli][run]") {
  auto r = run_warpsim("run --arch hopper-h100 --kernel readOffset -p n=65536 -p offset=1 --json");
  REQUIRE(r.exit_code == 0);
  for (const char* key : {"\"arch\": \"hopper-h100\"", "\"kernel\": \"readOffset\"", "\"params\": {", "\"cycles\": ",
                          "\"time_ms\": ", "\"metrics\": {", "\"wall_s\": ", "\"warp_instructions\": ",
                          "\"gld_efficiency\": ", "\"l2_hit_rate\": ", "\"dual_issue_fraction\": ",
                          "\"stall_memory_dependency\": "})
    CHECK(r.out.find(key) != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);  // one line: results only on stdout
}

TEST_CASE("run reports bad input with exit 2 and names it", "[cli][run]") {
  auto arch = run_warpsim("run --arch volta --kernel readOffset");
  CHECK(arch.exit_code == 2);
  CHECK(arch.err.find("unknown architecture 'volta'") != std::string::npos);
  auto kernel = run_warpsim("run --arch hopper-h100 --kernel nope");
  CHECK(kernel.exit_code == 2);
  CHECK(kernel.err.find("unknown kernel 'nope'") != std::string::npos);
  auto param = run_warpsim("run --arch hopper-h100 --kernel readOffset -p block=2048");
  CHECK(param.exit_code == 2);
  CHECK(param.err.find("block") != std::string::npos);
  auto both = run_warpsim("run --arch hopper-h100");
  CHECK(both.exit_code == 2);
  auto set = run_warpsim("run --arch hopper-h100 --kernel readOffset --set gpu.sms=0");
  CHECK(set.exit_code == 2);
  CHECK(set.err.find("gpu.sms") != std::string::npos);
  auto policy = run_warpsim("run --arch hopper-h100 --kernel readOffset --set sm.scheduler_policy=two-level");
  CHECK(policy.exit_code == 2);
  CHECK(policy.err.find("sm.scheduler_policy") != std::string::npos);
  CHECK(policy.err.find("expected one of lrr, gto") != std::string::npos);
  auto trace = run_warpsim("run --arch hopper-h100 --trace /nonexistent/kernelslist.g");
  CHECK(trace.exit_code == 2);
  // Negative counts and ids: Program_options alone read "-1" as 2^64 - 1 and ran with that.
  auto seed = run_warpsim("run --arch hopper-h100 --kernel readOffset -p n=4096 --seed -1");
  CHECK(seed.exit_code == 2);
  CHECK(seed.err.find("--seed") != std::string::npos);
  CHECK(run_warpsim("run --arch hopper-h100 --kernel readOffset -p n=4096 --seed 18446744073709551615").exit_code == 0);
  CHECK(run_warpsim("run --arch hopper-h100 --kernel readOffset -p n=4096 --seed 18446744073709551616").exit_code == 2);
  auto block = run_warpsim("analyze --arch hopper-h100 --kernel readOffset -p n=4096 --block -1");
  CHECK(block.exit_code == 2);
  CHECK(block.err.find("--block") != std::string::npos);
}

TEST_CASE("run refuses an L2 policy the GPU cannot take and warns where the driver would clamp", "[cli][run]") {
  const std::string k = "--kernel persistKernel -p data_bytes=1M -p persist_bytes=64K ";
  auto fermi = run_warpsim("run --arch fermi-m2070 " + k + "-p window_bytes=64K");
  CHECK(fermi.exit_code == 2);
  CHECK(fermi.err.find("-p window_bytes: ") != std::string::npos);
  CHECK(fermi.err.find("no L2 persistence") != std::string::npos);
  auto wide = run_warpsim("run --arch hopper-h100 " + k + "-p window_bytes=129M");
  CHECK(wide.exit_code == 2);
  CHECK(wide.err.find("accessPolicyMaxWindowSize") != std::string::npos);
  auto clamped = run_warpsim("run --arch hopper-h100 " + k + "-p window_bytes=64K -p set_aside_bytes=40M --json");
  CHECK(clamped.exit_code == 0);
  CHECK(clamped.err.find("warning: set_aside_bytes 41943040") != std::string::npos);
  CHECK(clamped.out.find("\"warnings\": [\"set_aside_bytes 41943040") != std::string::npos);
}

TEST_CASE("run executes a shared Accel-Sim trace; warp instructions equal its instruction lines", "[cli][run]") {
  // ../shared/traces/README.md: vectoradd has 26,601 instruction lines.
  auto r = run_warpsim("run --arch hopper-h100 --trace " + warpsim::test::shared_path("traces/vectoradd-sm80-v5/kernelslist.g") +
                       " --json");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\"warp_instructions\": 26601") != std::string::npos);
}

TEST_CASE("run reports what a trace's source found while it ran (an unknown opcode)", "[cli][run]") {
  // The warnings were gathered at launch, before any warp had reached the opcode, and got lost.
  const std::string dir = warpsim::test::temp_dir("run-unknown-opcode");
  std::ifstream in(warpsim::test::shared_path("traces/vectoradd-sm80-v5/kernel-1.traceg"));
  std::stringstream text;
  text << in.rdbuf();
  std::string trace = text.str();
  const std::size_t imad = trace.find(" IMAD ");
  REQUIRE(imad != std::string::npos);
  trace.replace(imad, 6, " FROBNICATE ");
  std::ofstream(dir + "/kernel-1.traceg") << trace;
  std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
  auto r = run_warpsim("run --arch hopper-h100 --trace " + dir + "/kernelslist.g --json");
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("warning: " + dir + "/kernel-1.traceg: unknown opcode 'FROBNICATE'") != std::string::npos);
  CHECK(r.out.find("\"warnings\": [") != std::string::npos);
}

TEST_CASE("analyze prints the critical path; validate runs a table", "[cli][analyze]") {
  auto a = run_warpsim("analyze --arch kepler-k20x --kernel fmaChain -p iters=64 --json");
  REQUIRE(a.exit_code == 0);
  CHECK(a.out.find("\"critical_path_cycles\": ") != std::string::npos);
  CHECK(a.out.find("\"ilp\": ") != std::string::npos);
  auto v = run_warpsim("validate --table h100-latency --json");
  CHECK(v.exit_code == 0);
  CHECK(v.out.find("\"pass\": true") != std::string::npos);
  auto unknown = run_warpsim("validate --table nope");
  CHECK(unknown.exit_code == 2);
}

TEST_CASE("validate --arch simulates a table with another preset, by name or file", "[cli][validate]") {
  // The H100's chase, simulated with the H200's preset, is the H200's chase: the same working
  // sets, so the same simulated cycles as h200-latency's, against the H100's references.
  auto simulated = [](const std::string& json) {
    std::vector<std::string> out;
    for (auto at = json.find("\"simulated\": "); at != std::string::npos; at = json.find("\"simulated\": ", at + 1))
      out.push_back(json.substr(at, json.find(',', at) - at));
    return out;
  };
  const std::string file = std::string(WARPSIM_SOURCE_DIR) + "/models/presets/hopper-h200.ini";
  auto own = run_warpsim("validate --table h200-latency --json");
  auto named = run_warpsim("validate --table h100-latency --arch hopper-h200 --json");
  auto from_file = run_warpsim("validate --table h100-latency --arch " + file + " --json");
  auto h100 = run_warpsim("validate --table h100-latency --json");
  REQUIRE(own.exit_code == 0);
  REQUIRE(named.exit_code <= 1);
  CHECK(simulated(named.out).size() == 4);
  CHECK(simulated(named.out) == simulated(own.out));
  CHECK(simulated(from_file.out) == simulated(own.out));
  CHECK(simulated(h100.out) != simulated(own.out));
  CHECK(named.out.find("simulated with hopper-h200, not the table's own preset") != std::string::npos);
  // Every table honours it, the limiter's too (its calibration rows and programs ran on hopper-h100
  // whatever --arch said).
  auto limiter_own = run_warpsim("validate --table h100-limiter --quick --json");
  auto limiter_h200 = run_warpsim("validate --table h100-limiter --quick --arch hopper-h200 --json");
  REQUIRE(limiter_own.exit_code <= 1);
  REQUIRE(limiter_h200.exit_code <= 1);
  CHECK(simulated(limiter_h200.out).size() == simulated(limiter_own.out).size());
  CHECK(simulated(limiter_h200.out) != simulated(limiter_own.out));
  auto missing = run_warpsim("validate --table h100-latency --arch nowhere/gpu.ini");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no preset file 'nowhere/gpu.ini'") != std::string::npos);
  auto cycles = [](const std::string& json) { return json.substr(json.find("\"cycles\": "), 24); };
  auto by_file = run_warpsim("run --arch " + file + " --kernel readOffset -p n=65536 --json");
  auto by_name = run_warpsim("run --arch hopper-h200 --kernel readOffset -p n=65536 --json");
  REQUIRE(by_file.exit_code == 0);
  CHECK(cycles(by_file.out) == cycles(by_name.out));
}

TEST_CASE("a converted .wtrace simulates exactly like its source: trace and library kernel", "[cli][wtrace]") {
  const std::string dir = warpsim::test::temp_dir("convert-sim");
  auto metrics_of = [](const std::string& json) {
    // Everything but wall_s (host time) and the kernel label must match.
    auto from = json.find("\"cycles\"");
    auto to = json.find("\"wall_s\"");
    return json.substr(from, to - from);
  };
  // An Accel-Sim trace (vectoradd, MemcpyHtoD steps included).
  const std::string trace = warpsim::test::shared_path("traces/vectoradd-sm80-v5/kernelslist.g");
  REQUIRE(run_warpsim("trace convert " + trace + " " + dir + "/vectoradd.wtrace").exit_code == 0);
  auto source = run_warpsim("run --arch hopper-h100 --trace " + trace + " --json");
  auto converted = run_warpsim("run --arch hopper-h100 --trace " + dir + "/vectoradd.wtrace --json");
  REQUIRE(source.exit_code == 0);
  REQUIRE(converted.exit_code == 0);
  CHECK(metrics_of(converted.out) == metrics_of(source.out));

  // A library kernel, recorded with Kepler's SASS and replayed on Kepler.
  REQUIRE(run_warpsim("trace convert --kernel readOffset -p n=65536 -p offset=11 --arch kepler-k20x " + dir +
                      "/ro.wtrace")
              .exit_code == 0);
  auto library = run_warpsim("run --arch kepler-k20x --kernel readOffset -p n=65536 -p offset=11 --json");
  auto replay = run_warpsim("run --arch kepler-k20x --trace " + dir + "/ro.wtrace --json");
  REQUIRE(replay.exit_code == 0);
  CHECK(metrics_of(replay.out) == metrics_of(library.out));
  CHECK(run_warpsim("trace convert --kernel readOffset " + dir + "/ro.txt").exit_code == 2);
}

TEST_CASE("every shared trace runs; warp instructions equal its instruction lines", "[cli][run][slow]") {
  // ../shared/traces/README.md's instruction-line counts.
  const std::pair<const char*, const char*> traces[] = {{"vectoradd-sm80-v5", "26601"},
                                                        {"bfs-rodinia-sm80-v3", "159509"},
                                                        {"btree-rodinia-sm90-v5", "43664"},
                                                        {"ffma-sm90-v5", "1328"}};
  for (const auto& [name, lines] : traces) {
    INFO(name);
    auto r = run_warpsim("run --arch hopper-h100 --trace " + warpsim::test::shared_path(std::string("traces/") + name) +
                         "/kernelslist.g --json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find(std::string("\"warp_instructions\": ") + lines + ",") != std::string::npos);
  }
}

TEST_CASE("run on a trace: kernels in --json, a launch table in text; --ncu, --launches and --metrics", "[cli][run][launches]") {
  const std::string list = warpsim::test::shared_path("calibration/h100/apps/backprop/kernelslist.g");
  auto json = run_warpsim("run --arch hopper-h100 --trace " + list + " --ncu --json");
  REQUIRE(json.exit_code == 0);
  for (const char* key : {"\"measurement\": {\"mode\": \"ncu\", \"cache_control\": \"all\"}", "\"kernels\": [{\"launch\": 1, ",
                          "\"name\": \"_Z22bpnn_layerforward_CUDAPfS_S_S_ii\", \"grid\": [1, 512, 1], \"block\": [16, 16, 1], "
                          "\"start_cycle\": 0, \"cycles\": ",
                          "{\"launch\": 2, \"name\": \"_Z24bpnn_adjust_weights_cudaPfiS_iS_S_\"", "\"time_ms\": ",
                          "\"metrics\": {\"warp_instructions\": 536576, ", "\"metrics\": {\"warp_instructions\": 204823, "})
    CHECK(json.out.find(key) != std::string::npos);
  auto text = run_warpsim("run --arch hopper-h100 --trace " + list + " --launches 2 --ncu --cache-control none");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("(ncu measurement, cache control none)") != std::string::npos);
  CHECK(text.out.find("\n     2  _Z24bpnn_adjust_weights_cuda") != std::string::npos);
  CHECK(text.out.find("dram_bytes  limiter\n") != std::string::npos);  // each launch's verdict in the table
  CHECK(text.out.find("\n     1  ") == std::string::npos);

  auto flags = run_warpsim("run --arch hopper-h100 --trace " + list + " --cache-control all");
  CHECK(flags.exit_code == 2);
  CHECK(flags.err.find("--cache-control: applies to --ncu runs only") != std::string::npos);
  auto empty = run_warpsim("run --arch hopper-h100 --trace " + list + " --launches ''");
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("--launches: empty list") != std::string::npos);
  auto past = run_warpsim("run --arch hopper-h100 --trace " + list + " --launches 1-3");
  CHECK(past.exit_code == 2);
  CHECK(past.err.find("--launches: launch 3 does not exist: the workload has 2 launches") != std::string::npos);

  // One table row per metric, in the order of the results, each with its counterpart.
  auto metrics = run_warpsim("run --metrics");
  REQUIRE(metrics.exit_code == 0);
  std::istringstream lines(metrics.out);
  std::string line;
  std::getline(lines, line);
  std::getline(lines, line);
  for (const auto& name : warpsim::models::metric_names()) {
    REQUIRE(std::getline(lines, line));
    CHECK(line.rfind("| `" + name + "` | ", 0) == 0);
    CHECK(std::count(line.begin(), line.end(), '|') == 5);
  }
  CHECK_FALSE(std::getline(lines, line));
  CHECK(metrics.out.find("| `l2_hit_rate` | lts__t_sector_hit_rate.pct |") != std::string::npos);
}

TEST_CASE("run says why: a summary with the verdict and a bar per resource; limiter and utilization in --json",
          "[cli][run][bound]") {
  // S3.10: a 32 x 32 transpose through shared memory without padding conflicts 32 ways on Kepler;
  // with the padding it does not, and the banks are no longer what holds it.
  const std::string transpose = "run --arch kepler-k20x --kernel transposeShared -p width=512 -p pad=";
  auto text = run_warpsim(transpose + "0");
  REQUIRE(text.exit_code == 0);
  for (const char* line : {"\ntime        ", "\nverdict     shared-banks: shared memory serves ", "\noccupancy   achieved ",
                           "\nschedulers  issue in ", "\nutilisation, of the preset's peak over the elapsed time:\n",
                           "\n  shared        #", "\n  dram          "})
    CHECK(text.out.find(line) != std::string::npos);
  CHECK(text.out.find("warp_instructions") == std::string::npos);  // every metric only with --all
  auto all = run_warpsim(transpose + "0 --all");
  CHECK(all.out.find("\nwarp_instructions         ") != std::string::npos);
  CHECK(all.out.find("\nlimiter                   shared-banks\n") != std::string::npos);
  auto padded = run_warpsim(transpose + "1");
  REQUIRE(padded.exit_code == 0);
  CHECK(padded.out.find("\nverdict     ") != std::string::npos);
  CHECK(padded.out.find("\nverdict     shared-banks") == std::string::npos);

  auto json = run_warpsim(transpose + "0 --json");
  REQUIRE(json.exit_code == 0);
  for (const char* key : {"\"utilization\": {\"issue\": ", "\"l1_wavefronts\": ", "\"shared\": ", "\"dram\": ",
                          "\"limiter\": \"shared-banks\", \"limiter_evidence\": \"shared memory at ",
                          "\"occupancy_limit\": \"", "\"theoretical_occupancy\": ", "\"verdict\": \"shared-banks: "})
    CHECK(json.out.find(key) != std::string::npos);
  CHECK(json.out.find("\"utilization_issue\"") == std::string::npos);  // nested, not flat

  // Every verdict is explained in --help.
  auto help = run_warpsim("run --help");
  REQUIRE(help.exit_code == 0);
  for (const char* name : {"dram-bandwidth", "l2-bandwidth", "l1-lsu", "shared-banks", "issue", "latency", "barrier",
                           "tail", "launch"})
    CHECK(help.out.find(std::string("\n  ") + name + " ") != std::string::npos);
}

namespace {
// The number after `"key": ` (first occurrence from `from`), in a line of run --json.
double json_number_after(const std::string& json, const std::string& key, std::size_t from = 0) {
  const std::size_t at = json.find("\"" + key + "\": ", from);
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + key.size() + 4));
}
}  // namespace

TEST_CASE("run --stats writes the stats registry: text after the results, an object in --json", "[cli][run]") {
  const std::string run = "run --arch kepler-k20x --kernel readOffset -p n=65536 -p offset=1 --stats";
  auto text = run_warpsim(run);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("\ngpu.mem.gld_requests ") != std::string::npos);
  CHECK(text.out.find("\ngpu.dram.read_bytes ") != std::string::npos);
  CHECK(text.out.find("gpu.sm13.") != std::string::npos);  // every SM's counters (14 on the K20X)
  CHECK(run_warpsim("run --arch kepler-k20x --kernel readOffset -p n=65536 -p offset=1").out.find("gpu.mem.") ==
        std::string::npos);  // only when asked

  auto json = run_warpsim(run + " --json");
  REQUIRE(json.exit_code == 0);
  const std::size_t stats = json.out.find("\"stats\": {");
  REQUIRE(stats != std::string::npos);
  // The registry's raw counters are the ones the metrics come from.
  const std::size_t entry = json.out.find("\"gpu.mem.gld_requests\": {\"value\": ", stats);
  REQUIRE(entry != std::string::npos);
  CHECK(json_number_after(json.out, "value", entry) == json_number_after(json.out, "gld_requests"));
  CHECK(json_number_after(json.out, "gld_requests") > 0);
}
