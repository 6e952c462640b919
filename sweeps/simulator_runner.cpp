#include "sweeps/simulator_runner.hpp"

#include <cstdlib>
#include <string>

#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sweeps/synthetic_runner.hpp"

namespace warpsim::sweeps {

PointRunner default_point_runner() {
  if (const char* env = std::getenv("WARPSIM_SWEEP_RUNNER"); env && std::string(env).rfind("synthetic", 0) == 0) {
    std::string s = env;
    std::int64_t ms = 0;
    if (auto colon = s.find(':'); colon != std::string::npos && !sim::parse_int(s.substr(colon + 1), ms))
      throw sim::InputError("WARPSIM_SWEEP_RUNNER", "expected synthetic or synthetic:MILLISECONDS, got '" + s + "'");
    return [ms](const models::RunRequest& r) { return synthetic_simulate(r, std::chrono::milliseconds(ms)); };
  }
  return [](const models::RunRequest& r) { return models::simulate(r); };
}

}  // namespace warpsim::sweeps
