#include "sweeps/spec_vocabulary.hpp"

#include <algorithm>

#include "models/arch.hpp"

namespace warpsim::sweeps {

// Kept equal to CONTRACT.md's kernel library; the kernel library has no table to ask yet.
const std::vector<std::string>& known_kernels() {
  static const std::vector<std::string> names = {
      "readOffset", "readOffsetNC", "writeOffset", "readOffsetUnroll", "stridedRead", "testInnerStruct",
      "testInnerArray", "transposeNaive", "transposeShared", "fmaChain", "chase", "persistKernel", "emptyKernel"};
  return names;
}

const std::vector<std::string>& known_kernel_parameters() {
  static const std::vector<std::string> names = {
      "n", "block", "grid", "offset", "unroll", "stride", "width", "pad", "ilp", "iters", "persist_bytes",
      "data_bytes", "working_set_bytes", "steps", "window_bytes", "hit_ratio", "hit_prop", "miss_prop",
      "set_aside_bytes"};
  return names;
}

bool is_known_kernel(const std::string& name) {
  const auto& k = known_kernels();
  return std::find(k.begin(), k.end(), name) != k.end();
}

bool is_known_kernel_parameter(const std::string& name) {
  const auto& k = known_kernel_parameters();
  return std::find(k.begin(), k.end(), name) != k.end();
}

bool is_known_preset_parameter(const std::string& key) {
  const auto& specs = models::arch_params();
  return std::any_of(specs.begin(), specs.end(), [&](const sim::ParamSpec& s) { return s.key == key; });
}

}  // namespace warpsim::sweeps
