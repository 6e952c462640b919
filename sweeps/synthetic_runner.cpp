#include "sweeps/synthetic_runner.hpp"

#include <cstdint>
#include <string>
#include <thread>

#include "models/bound/limiter.hpp"
#include "sim/config.hpp"
#include "sim/errors.hpp"

namespace warpsim::sweeps {
namespace {

std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return (h ^ 0xff) * 1099511628211ULL;
}

}  // namespace

models::RunResult synthetic_simulate(const models::RunRequest& request, std::chrono::milliseconds delay) {
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  models::RunResult r;
  r.arch = request.arch;
  r.kernel = request.kernel.empty() ? request.trace : request.kernel;
  std::uint64_t h = fnv1a(14695981039346656037ULL, request.arch);
  h = fnv1a(h, r.kernel);
  std::int64_t max_block = 1024;
  for (const auto& o : request.arch_overrides) {
    h = fnv1a(h, o);
    if (o.rfind("sm.max_threads_per_block=", 0) == 0) sim::parse_int(o.substr(o.find('=') + 1), max_block);
  }
  for (const auto& p : request.kernel_params) {
    h = fnv1a(h, p);
    auto eq = p.find('=');
    std::string key = p.substr(0, eq), value = p.substr(eq + 1);
    r.params.emplace_back(key, value);
    std::int64_t v;
    if (key == "block" && sim::parse_int(value, v) && v > max_block)
      throw sim::InputError("block", "a block of " + value + " threads exceeds the " + std::to_string(max_block) +
                                         " threads per block of " + request.arch);
  }
  h = fnv1a(h, std::to_string(request.seed));
  r.cycles = 1000 + h % 100000;
  r.time_ms = double(r.cycles) / 1.0e6;
  const auto& names = models::metric_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    r.metrics.emplace_back(names[i], double(h >> 11) / double(1ULL << 53) * 100.0);
  }
  r.warp_instructions = static_cast<std::uint64_t>(r.metrics.front().second * 1000);
  // Words as a run gives them, so the sweep's text columns carry something: a limiter by the hash,
  // with an evidence string that has a comma, a tab and a quote to travel through the journal.
  const auto limiter = models::Limiter(h % models::kLimiterCount);
  r.text_metrics = {{"limiter", std::string(models::limiter_name(limiter))},
                    {"limiter_evidence", "synthetic, \"point\"\t" + std::to_string(h % 1000)},
                    {"occupancy_limit", "threads"}};
  if (request.sample) {
    // A sampled point: a quarter simulated in detail, its time good to 0.5%.
    r.sampling.asked = r.sampling.sampled = true;
    r.sampling.detail_fraction = 0.25;
    r.sampling.time_error_pct = 0.5;
  }
  return r;
}

}  // namespace warpsim::sweeps
