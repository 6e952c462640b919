// Architecture presets: complete, sourced, overridable, and strict about unknown input.
#include <catch2/catch.hpp>

#include <filesystem>

#include "models/arch.hpp"
#include "models/core/issue_policies.hpp"
#include "sim/errors.hpp"

using namespace warpsim::models;

TEST_CASE("the required presets exist and every parameter has a value and a source", "[models][arch]") {
  auto names = preset_names();
  for (const char* required : {"fermi-m2070", "kepler-k20x", "hopper-h100", "hopper-h200"}) {
    INFO(required);
    REQUIRE(std::find(names.begin(), names.end(), required) != names.end());
    Arch a = load_arch(required);
    for (const auto& key : a.config.keys()) {
      INFO(key);
      auto s = a.config.setting(key);
      CHECK(s.origin != "default");  // given by the preset file, not silently defaulted
      CHECK(!s.source.empty());      // and its source written beside it
    }
  }
}

TEST_CASE("presets carry the numbers of their sources", "[models][arch]") {
  Arch h = load_arch("hopper-h100");  // ../shared/calibration/h100/device.csv
  CHECK(h.gpu.sms == 132);
  CHECK(h.l2.size_bytes == 52428800);
  CHECK(h.l2.persist_max_bytes == 32768000);
  CHECK(h.l2.max_window_bytes == 134217728);
  CHECK(h.gpu.core_clock_khz == 1980000);
  CHECK(h.dram.bus_width_bits == 5120);
  CHECK(h.sm.shared_bytes == 233472);
  Arch k = load_arch("kepler-k20x");  // SPEC S1.4, S2.3, S2.5
  CHECK(k.sm.schedulers == 4);
  CHECK(k.sm.dispatch_per_scheduler == 2);
  CHECK(k.sm.max_warps_per_scheduler == 16);
  CHECK(k.units.lanes[int(warpsim::traces::Unit::Fp32)] / 32 == 6);
  CHECK(k.units.lanes[int(warpsim::traces::Unit::Fp64)] / 32 == 2);
  CHECK(k.units.lanes[int(warpsim::traces::Unit::LdSt)] / 32 == 1);
  CHECK(k.units.lanes[int(warpsim::traces::Unit::Sfu)] / 32 == 1);
  CHECK_FALSE(k.l1.caches_global);  // S3.5
  CHECK(load_arch("fermi-m2070").l1.caches_global);
}

TEST_CASE("set overrides a preset value and unknown presets or keys are input errors", "[models][arch]") {
  Arch a = load_arch("kepler-k20x", {"gpu.sms=15", "latency.fp32=20"});
  CHECK(a.gpu.sms == 15);
  CHECK(a.units.latency[int(warpsim::traces::Unit::Fp32)] == 20);
  CHECK(a.config.setting("gpu.sms").origin == "--set gpu.sms");
  REQUIRE_THROWS_WITH(load_arch("volta-v100"), Catch::Contains("unknown architecture 'volta-v100'") &&
                                                   Catch::Contains("hopper-h100") && Catch::Contains("kepler-k20x"));
  REQUIRE_THROWS_WITH(load_arch("kepler-k20x", {"gpu.smz=3"}), Catch::Contains("unknown parameter 'gpu.smz'"));
  REQUIRE_THROWS_WITH(load_arch("kepler-k20x", {"gpu.sms=0"}), Catch::Contains("must be in"));
  REQUIRE_THROWS_WITH(load_arch("kepler-k20x", {"dram.latency_min=900"}), Catch::Contains("exceeds dram.latency_max"));
  // Caches too large for the host's memory are refused up front, not by a failed allocation.
  for (const char* huge : {"l2.size_bytes=1000000000000", "l1.size_bytes=1000000000000", "readonly.size_bytes=8388608"})
    REQUIRE_THROWS_WITH(load_arch("hopper-h100", {huge}), Catch::Contains("must be in"));
  CHECK(load_arch("hopper-h100", {"l2.size_bytes=1073741824"}).l2.size_bytes == 1073741824);
  // Counts kept in 32 bits are refused above that, naming the setting (they used to wrap:
  // 5,000,000,000 lanes became 705,032,704); issue lanes stop at 2^20 (unit_pool.hpp).
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"units.fp32_lanes=5000000000"}),
                      Catch::Contains("units.fp32_lanes") && Catch::Contains("must be in [1, 1048576]"));
  CHECK(load_arch("hopper-h100", {"units.fp32_lanes=1048576"}).units.lanes[int(warpsim::traces::Unit::Fp32)] == 1048576);
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"gpu.sms=5000000000"}), Catch::Contains("must be in"));
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"sm.registers=5000000000"}),
                      Catch::Contains("--set sm.registers") && Catch::Contains("does not fit 32 bits"));
  // A relation between keys broken by a --set names that --set, not the preset line of the
  // other key (which the user never touched).
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"sm.schedulers=1"}),
                      Catch::StartsWith("--set sm.schedulers: ") && Catch::Contains("schedulers cannot hold sm.max_warps"));
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"sm.max_warps=128", "sm.max_threads=4096"}),
                      Catch::StartsWith("--set sm.max_warps: "));
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"dram.latency_max=1"}), Catch::StartsWith("--set dram.latency_max: "));
  REQUIRE_THROWS_WITH(load_arch("hopper-h100", {"l2.size_bytes=1024"}), Catch::StartsWith("--set l2.size_bytes: "));
}

TEST_CASE("a preset file is a preset too", "[models][arch]") {
  const std::filesystem::path file = preset_dir() / "hopper-h100.ini";
  Arch a = load_arch(file.string(), {"gpu.sms=66"});
  CHECK(a.preset == file.string());
  CHECK(a.gpu.sms == 66);
  CHECK(a.l2.size_bytes == load_arch("hopper-h100").l2.size_bytes);
  CHECK(a.config.setting("l2.size_bytes").origin.rfind(file.string() + ":", 0) == 0);
  REQUIRE_THROWS_WITH(load_arch("no/such/preset.ini"), Catch::Contains("no preset file 'no/such/preset.ini'"));
  REQUIRE_THROWS_WITH(load_arch("missing.ini"), Catch::Contains("no preset file 'missing.ini'"));
}

TEST_CASE("sm.scheduler_policy chooses from the issue-policy table, and refuses any other name", "[models][arch]") {
  // The parameter's choices are the table's names (issue_policies.hpp), so a policy that is not
  // in the table cannot silently run as another.
  const auto& specs = arch_params();
  auto spec = std::find_if(specs.begin(), specs.end(), [](const auto& s) { return s.key == "sm.scheduler_policy"; });
  REQUIRE(spec != specs.end());
  CHECK(spec->choices == IssuePolicies::names());
  for (std::uint32_t i = 0; i < IssuePolicies::kCount; ++i) {
    const std::string name(IssuePolicies::kNames[i]);
    INFO(name);
    CHECK(load_arch("kepler-k20x", {"sm.scheduler_policy=" + name}).sm.scheduler_policy == i);
  }
  try {
    load_arch("kepler-k20x", {"sm.scheduler_policy=two-level"});
    FAIL("an unknown policy was accepted");
  } catch (const warpsim::sim::InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("sm.scheduler_policy") != std::string::npos);
    CHECK(what.find("expected one of lrr, gto") != std::string::npos);
  }
}

TEST_CASE("the preset's keys are the components' keys, each declared by one component", "[models][arch]") {
  std::vector<std::string> keys, titles;
  for (const auto& component : arch_components()) {
    INFO(component.title);
    CHECK(!component.params.empty());
    CHECK(std::find(titles.begin(), titles.end(), component.title) == titles.end());
    titles.push_back(component.title);
    for (const auto& spec : component.params) keys.push_back(spec.key);
  }
  std::vector<std::string> all;
  for (const auto& spec : arch_params()) all.push_back(spec.key);
  CHECK(keys == all);
  CHECK(load_arch("hopper-h100").config.keys() == all);  // the presets' order
}
