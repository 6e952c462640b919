// libFuzzer harness: see fuzz_targets.hpp and README.md in this folder.
#include "tests/fuzz/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  warpsim::fuzz::fuzz_line(data, size);
  return 0;
}
