#include "sweeps/simulator_runner.hpp"

#include <cstdlib>
#include <string>

#include "sim/config.hpp"
#include "sim/errors.hpp"
#include "sweeps/synthetic_runner.hpp"

namespace warpsim::sweeps {

bool simulator_available() { return WARPSIM_HAVE_SIMULATE != 0; }

PointRunner default_point_runner() {
  if (const char* env = std::getenv("WARPSIM_SWEEP_RUNNER"); env && std::string(env).rfind("synthetic", 0) == 0) {
    std::string s = env;
    std::int64_t ms = 0;
    if (auto colon = s.find(':'); colon != std::string::npos && !sim::parse_int(s.substr(colon + 1), ms))
      throw sim::InputError("WARPSIM_SWEEP_RUNNER", "expected synthetic or synthetic:MILLISECONDS, got '" + s + "'");
    return [ms](const models::RunRequest& r) { return synthetic_simulate(r, std::chrono::milliseconds(ms)); };
  }
#if WARPSIM_HAVE_SIMULATE
  return [](const models::RunRequest& r) { return models::simulate(r); };
#else
  return [](const models::RunRequest&) -> models::RunResult {
    throw sim::InputError("simulate", "this build has no simulator yet (models::simulate is not defined)");
  };
#endif
}

}  // namespace warpsim::sweeps
