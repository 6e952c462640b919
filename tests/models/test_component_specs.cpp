// Each component's spec reads its own keys and refuses, by itself, values of its keys that
// contradict each other, naming the key and where it was set.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "sim/errors.hpp"

using namespace warpsim;
using namespace warpsim::models;

namespace {

// hopper-h100's config with `overrides` (--set), validated as load_arch does.
sim::Config hopper_config(const std::vector<std::string>& overrides = {}) {
  sim::Config c(arch_params());
  c.load_ini(preset_file("hopper-h100"));
  for (const auto& o : overrides) c.set_assignment(o, "--set");
  c.validate();
  return c;
}

}  // namespace

TEST_CASE("GpuSpec reads the [gpu] keys", "[models][arch][specs]") {
  const GpuSpec gpu = GpuSpec::from_config(hopper_config({"gpu.sms=66"}));
  CHECK(gpu.sms == 66);
  CHECK(gpu.sm_version == 90);
  CHECK(gpu.core_clock_khz == 1980000);
}

TEST_CASE("SmSpec refuses residency limits that contradict each other", "[models][arch][specs]") {
  CHECK(SmSpec::from_config(hopper_config()).max_warps == 64);
  REQUIRE_THROWS_WITH(SmSpec::from_config(hopper_config({"sm.max_threads=4096"})),
                      Catch::Equals("--set sm.max_threads: sm.max_warps: fewer warps than sm.max_threads needs"));
  REQUIRE_THROWS_WITH(SmSpec::from_config(hopper_config({"sm.max_warps_per_scheduler=8"})),
                      Catch::Equals("--set sm.max_warps_per_scheduler: sm.max_warps_per_scheduler: schedulers cannot "
                                    "hold sm.max_warps"));
  // What the SM model supports is the spec's to refuse too, before any SM is built.
  REQUIRE_THROWS_WITH(SmSpec::from_config(hopper_config({"sm.max_warps=512", "sm.max_warps_per_scheduler=128"})),
                      Catch::Equals("--set sm.max_warps: at most 64 warps per scheduler are supported "
                                    "(sm.max_warps / sm.schedulers)"));
  REQUIRE_THROWS_WITH(hopper_config({"sm.schedulers=17"}), Catch::Contains("must be in [1, 16]"));
}

TEST_CASE("UnitsSpec reads lanes and latencies by unit, LdSt's latency being latency.shared", "[models][arch][specs]") {
  const UnitsSpec units = UnitsSpec::from_config(hopper_config({"latency.fp32=7", "latency.shared=31"}));
  CHECK(units.latency[int(traces::Unit::Fp32)] == 7);
  CHECK(units.latency[int(traces::Unit::LdSt)] == 31);
  CHECK(units.shared_latency == 31);
  CHECK(units.lanes[int(traces::Unit::Fp32)] == 128);
}

TEST_CASE("DispatchSpec reads the [dispatch] keys", "[models][arch][specs]") {
  const DispatchSpec d = DispatchSpec::from_config(hopper_config({"dispatch.retire_interval_cycles=0.5"}));
  CHECK(d.retire_interval_cycles == 0.5);
  CHECK(d.block_interval_cycles >= 1);
}

TEST_CASE("L1Spec refuses a sector that does not divide the line", "[models][arch][specs]") {
  CHECK(memory::L1Spec::from_config(hopper_config()).sector_bytes == 32);
  REQUIRE_THROWS_WITH(memory::L1Spec::from_config(hopper_config({"l1.sector_bytes=96"})),
                      Catch::Equals("--set l1.sector_bytes: l1.sector_bytes: must divide l1.line_bytes"));
  REQUIRE_THROWS_WITH(memory::L1Spec::from_config(hopper_config({"l1.line_bytes=48"})),
                      Catch::Equals("--set l1.line_bytes: l1.sector_bytes: must divide l1.line_bytes"));
}

TEST_CASE("L1Spec and L2Spec refuse a cache smaller than one set, which would silently grow to one",
          "[models][arch][specs]") {
  CHECK(memory::L1Spec::from_config(hopper_config({"l1.size_bytes=0"})).size_bytes == 0);  // no L1
  CHECK(memory::L1Spec::from_config(hopper_config({"l1.size_bytes=512"})).size_bytes == 512);  // 4 ways x 128 B
  REQUIRE_THROWS_WITH(memory::L1Spec::from_config(hopper_config({"l1.size_bytes=511"})),
                      Catch::Equals("--set l1.size_bytes: l1.size_bytes: less than one set (l1.line_bytes x l1.ways); "
                                    "0 means no L1"));
  REQUIRE_THROWS_WITH(memory::L1Spec::from_config(hopper_config({"readonly.size_bytes=64"})),
                      Catch::Equals("--set readonly.size_bytes: readonly.size_bytes: less than one set "
                                    "(readonly.line_bytes x l1.ways); 0 means no read-only cache"));
  CHECK(memory::L2Spec::from_config(hopper_config({"l2.size_bytes=163840", "l2.persistence=false"})).size_bytes ==
        163840);  // 80 slices x 16 ways x 128 B
  REQUIRE_THROWS_WITH(
      memory::L2Spec::from_config(hopper_config({"l2.size_bytes=163839", "l2.persistence=false"})),
      Catch::Equals("--set l2.size_bytes: l2.size_bytes: less than one set a slice (l2.slices x l2.ways x l2.line_bytes)"));
}

TEST_CASE("L2Spec refuses values of its keys that contradict each other", "[models][arch][specs]") {
  const memory::L2Spec l2 = memory::L2Spec::from_config(hopper_config({"l2.sm_partitions=01"}));
  CHECK(l2.partition_near(0) == 0);
  CHECK(l2.partition_near(1) == 1);
  CHECK(l2.partition_near(131) == 1);  // the digits repeat past the list
  CHECK(memory::L2Spec::from_config(hopper_config({"l2.sm_partitions="})).partition_near(5) == 0);
  REQUIRE_THROWS_WITH(memory::L2Spec::from_config(hopper_config({"l2.partitions=3"})),
                      Catch::Equals("--set l2.partitions: l2.partitions: must divide l2.slices"));
  // The byte masks of incomplete sectors are 32 bits (l2_cache.hpp).
  REQUIRE_THROWS_WITH(memory::L2Spec::from_config(hopper_config({"l2.sector_bytes=64"})),
                      Catch::Equals("--set l2.sector_bytes: l2.fill_partial_write_backs: needs 32-byte L2 sectors"));
  CHECK_FALSE(
      memory::L2Spec::from_config(hopper_config({"l2.sector_bytes=64", "l2.fill_partial_write_backs=false"}))
          .fill_partial_write_backs);
  REQUIRE_THROWS_WITH(memory::L2Spec::from_config(hopper_config({"l2.sm_partitions=0120"})),
                      Catch::Equals("--set l2.sm_partitions: l2.sm_partitions: digit 3 ('2') is not a partition "
                                    "below l2.partitions"));
  REQUIRE_THROWS_WITH(memory::L2Spec::from_config(hopper_config({"l2.size_bytes=1024"})),
                      Catch::Equals("--set l2.size_bytes: l2.persist_max_bytes: exceeds l2.size_bytes"));
}

TEST_CASE("DramSpec refuses timings that contradict each other", "[models][arch][specs]") {
  const memory::DramSpec dram = memory::DramSpec::from_config(hopper_config());
  CHECK(dram.bytes_per_second() == dram.bus_width_bits / 8.0 * dram.data_rate_mtps * 1e6);
  REQUIRE_THROWS_WITH(memory::DramSpec::from_config(hopper_config({"dram.latency_max=1"})),
                      Catch::Equals("--set dram.latency_max: dram.latency_min: exceeds dram.latency_max"));
  REQUIRE_THROWS_WITH(memory::DramSpec::from_config(hopper_config({"dram.refresh_ns=1000000"})),
                      Catch::Equals("--set dram.refresh_ns: dram.refresh_ns: must be shorter than "
                                    "dram.refresh_interval_ns"));
  REQUIRE_THROWS_WITH(memory::DramSpec::from_config(hopper_config({"dram.refresh_groups=81"})),
                      Catch::Equals("--set dram.refresh_groups: dram.refresh_groups: exceeds dram.channels"));
}
