#pragma once
// Parameters that make each library kernel small enough to walk block by block in a unit test
// (the defaults of persistKernel, chase, fmaChain and persistLoop run for millions of
// instructions); the other kernels keep their defaults.
#include <string>
#include <vector>

namespace warpsim::test {

inline std::vector<std::string> small_kernel_params(const std::string& kernel) {
  if (kernel == "persistKernel") return {"data_bytes=1048576"};
  if (kernel == "chase") return {"steps=100"};
  if (kernel == "fmaChain") return {"iters=64", "grid=2"};
  if (kernel == "persistLoop") return {"grid=4", "iters=9"};
  return {};
}

}  // namespace warpsim::test
