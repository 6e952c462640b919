// Stats registry and writers; per-component RNG streams.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "sim/rng.hpp"
#include "sim/stats.hpp"
#include "sim/stats_writers.hpp"

using namespace warpsim::sim;

TEST_CASE("counters are registered by reference and read through the registry", "[sim][stats]") {
  StatsRegistry stats;
  std::uint64_t hits0 = 0, hits1 = 0, misses = 0;
  stats.add("gpu.sm0.l1.hits", hits0, "accesses", "L1 hits");
  stats.add("gpu.sm1.l1.hits", hits1, "accesses", "L1 hits");
  stats.add("gpu.sm1.l1.misses", misses, "accesses", "L1 misses");
  hits0 = 7;  // the model increments its own field; no look-up involved
  hits1 = 5;
  REQUIRE(stats.value("gpu.sm0.l1.hits") == 7);
  REQUIRE(stats.sum("gpu.sm", ".l1.hits") == 12);
  REQUIRE_THROWS(stats.add("gpu.sm0.l1.hits", misses, "accesses", "again"));

  std::ostringstream json, text;
  write_stats_json(json, stats.snapshot());
  REQUIRE(json.str().find("\"gpu.sm0.l1.hits\": {\"value\": 7, \"unit\": \"accesses\"") != std::string::npos);
  write_stats_text(text, stats.snapshot());
  REQUIRE(text.str().find("gpu.sm1.l1.hits 5 accesses  # L1 hits") != std::string::npos);
}

TEST_CASE("RNG streams depend on seed and component path only", "[sim][rng]") {
  Rng a(42, "gpu.l2"), b(42, "gpu.l2"), c(42, "gpu.dram"), d(43, "gpu.l2");
  std::uint64_t first = a.next();
  REQUIRE(first == b.next());
  REQUIRE(first != c.next());
  REQUIRE(first != d.next());
  std::set<std::uint64_t> values;
  for (int i = 0; i < 1000; ++i) values.insert(a.between(0, 9));
  REQUIRE(values.size() == 10);
  for (int i = 0; i < 1000; ++i) {
    double u = a.uniform();
    REQUIRE((u >= 0.0 && u < 1.0));
  }
}
