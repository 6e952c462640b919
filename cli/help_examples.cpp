#include "cli/help_examples.hpp"

#include <map>
#include <vector>

namespace warpsim::cli {

std::string help_examples(const std::string& command) {
  static const std::map<std::string, std::vector<const char*>> examples = {
      {"run",
       {"warpsim run --arch hopper-h100 --kernel readOffset -p offset=1",
        "warpsim run --arch kepler-k20x --kernel transposeShared -p pad=1 --json",
        "warpsim run --arch hopper-h100 --trace analysis/validation/data/h100-apps/matrixMul/kernelslist.g --ncu",
        "warpsim run --arch hopper-h100 --kernel readOffset -p n=256M --sample"}},
      {"sweep",
       {"warpsim sweep sweeps/specs/smoke.ini -o results.h5 -j 2", "warpsim sweep sweeps/specs/demo.ini --dry-run"}},
      {"report", {"warpsim report results.h5", "warpsim report results.h5 --json"}},
      {"arch",
       {"warpsim arch list", "warpsim arch show hopper-h100",
        "warpsim arch derive analysis/validation/data/h200 --from hopper-h100 -o my-h200.ini"}},
      {"kernels", {"warpsim kernels --json", "warpsim kernels"}},
      {"trace",
       {"warpsim trace info analysis/validation/data/h100-apps/fdtd2d/kernelslist.g",
        "warpsim trace convert analysis/validation/data/h100-apps/fdtd2d/kernelslist.g fdtd2d.wtrace"}},
      {"analyze", {"warpsim analyze --arch hopper-h100 --kernel fmaChain -p ilp=4"}},
      {"validate",
       {"warpsim validate --table h100-latency", "warpsim validate --quick --markdown > validation.md",
        "warpsim validate --table h100-apps --plot plots/"}},
  };
  const auto it = examples.find(command);
  if (it == examples.end()) return {};
  std::string out = "examples:\n";
  for (const char* e : it->second) (out += "  ") += std::string(e) + '\n';
  return out;
}

}  // namespace warpsim::cli
