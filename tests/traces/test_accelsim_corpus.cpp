// Replays the fuzzing corpus (tests/traces/corpus/, grown by tests/fuzz/run_fuzz, crashers
// included) through the same bodies the libFuzzer harnesses run: every input must either read
// or throw InputError, never anything else.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/fuzz/fuzz_targets.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::pair<std::string, std::string>> corpus(const std::string& target) {
  std::vector<std::pair<std::string, std::string>> files;
  fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests/traces/corpus" / target;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    files.emplace_back(e.path().filename().string(), std::string((std::istreambuf_iterator<char>(in)), {}));
  }
  std::sort(files.begin(), files.end());
  return files;
}

const std::uint8_t* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

}  // namespace

TEST_CASE("the fuzzing corpus replays: every input reads or is an InputError", "[accelsim][wtrace][fuzz]") {
  for (const char* target : {"traceg", "line", "wtrace"}) {
    auto files = corpus(target);
    CHECK(files.size() >= 3);
    for (const auto& [name, data] : files) {
      INFO(target << "/" << name);
      if (std::string(target) == "traceg") CHECK_NOTHROW(warpsim::fuzz::fuzz_traceg(bytes(data), data.size()));
      if (std::string(target) == "line") CHECK_NOTHROW(warpsim::fuzz::fuzz_line(bytes(data), data.size()));
      if (std::string(target) == "wtrace") CHECK_NOTHROW(warpsim::fuzz::fuzz_wtrace(bytes(data), data.size()));
    }
  }
}

TEST_CASE("the hand-made corpus seeds are valid traces", "[accelsim][fuzz]") {
  for (const auto& [name, data] : corpus("traceg")) {
    if (name.rfind("seed-", 0) != 0) continue;
    INFO(name);
    warpsim::traces::accelsim::TracegKernelSource source(name, [d = data] { return warpsim::traces::accelsim::memory_byte_source(d); });
    CHECK_NOTHROW(warpsim::fuzz::drain(source));
    CHECK(source.warnings().empty());
  }
}
