// The warpsim executable: help, version, subcommand table, exit codes of CONTRACT.md.
#include <catch2/catch.hpp>

#include "models/arch.hpp"
#include "tests/test_support.hpp"

using warpsim::test::run_warpsim;

TEST_CASE("version flag names the git commit", "[cli]") {
  auto r = run_warpsim("--version");
  REQUIRE(r.exit_code == 0);
  REQUIRE(r.out.find("warpsim ") == 0);
  REQUIRE(r.out.find("(git ") != std::string::npos);
}

TEST_CASE("help flag lists every subcommand of CONTRACT.md", "[cli]") {
  auto r = run_warpsim("--help");
  REQUIRE(r.exit_code == 0);
  for (const char* c : {"run", "sweep", "report", "arch", "kernels", "trace", "analyze", "validate"}) {
    INFO(c);
    CHECK(r.out.find(std::string("  ") + c + " ") != std::string::npos);
    auto sub = run_warpsim(std::string(c) + " --help");
    CHECK(sub.exit_code == 0);
    CHECK(sub.out.find("usage: warpsim " + std::string(c)) != std::string::npos);
    // Each ends its help with examples of itself.
    const auto examples = sub.out.find("examples:\n  warpsim " + std::string(c) + " ");
    CHECK(examples != std::string::npos);
  }
}

TEST_CASE("unknown commands and options exit 2 with a message", "[cli]") {
  auto r = run_warpsim("frobnicate");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'frobnicate'") != std::string::npos);
  auto o = run_warpsim("arch list --bogus");
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("bogus") != std::string::npos);
  CHECK(run_warpsim("").exit_code == 2);
}

TEST_CASE("arch list and arch show", "[cli][arch]") {
  auto list = run_warpsim("arch list");
  REQUIRE(list.exit_code == 0);
  for (const char* a : {"fermi-m2070", "kepler-k20x", "hopper-h100"}) CHECK(list.out.find(a) != std::string::npos);

  auto show = run_warpsim("arch show hopper-h100");
  REQUIRE(show.exit_code == 0);
  // Every parameter with value, unit and source, e.g. the SM count from device.csv.
  CHECK(show.out.find("gpu.sms") != std::string::npos);
  CHECK(show.out.find("device.csv: sms") != std::string::npos);
  CHECK(show.out.find("l2.persist_max_bytes") != std::string::npos);
  CHECK(show.out.find("32768000") != std::string::npos);
  CHECK(show.out.find("bytes") != std::string::npos);
  // By component: each spec's title heads its keys, in the presets' order.
  std::size_t at = 0;
  for (const auto& component : warpsim::models::arch_components()) {
    INFO(component.title);
    at = show.out.find("\n" + component.title + "\n" + component.params.front().key + " ", at);
    CHECK(at != std::string::npos);
  }

  auto set = run_warpsim("arch show kepler-k20x --set gpu.sms=20");
  CHECK(set.exit_code == 0);
  CHECK(set.out.find("set on the command line") != std::string::npos);
}

TEST_CASE("an unknown --arch exits 2 and lists the known presets", "[cli][arch]") {
  auto r = run_warpsim("arch show volta-v100");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown architecture 'volta-v100'") != std::string::npos);
  CHECK(r.err.find("fermi-m2070, hopper-h100, hopper-h200, kepler-k20x") != std::string::npos);
  auto bad = run_warpsim("arch show kepler-k20x --set gpu.nope=1");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("unknown parameter 'gpu.nope'") != std::string::npos);
}
