#include "sweeps/shard.hpp"

#include <cstdlib>

#include "sim/config.hpp"
#include "sim/errors.hpp"

namespace warpsim::sweeps {

Shard parse_shard(const std::string& text, const std::string& where) {
  auto slash = text.find('/');
  std::int64_t i, n;
  if (slash == std::string::npos || !sim::parse_int(text.substr(0, slash), i) ||
      !sim::parse_int(text.substr(slash + 1), n) || n < 1 || i < 0 || i >= n)
    throw sim::InputError(where, "expected I/N with 0 <= I < N (e.g. 0/4), got '" + text + "'");
  return Shard{static_cast<std::size_t>(i), static_cast<std::size_t>(n)};
}

std::optional<Shard> shard_from_slurm_environment() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  if (!id || !count) return std::nullopt;
  std::int64_t i, n, min = 0;
  if (const char* m = std::getenv("SLURM_ARRAY_TASK_MIN"); m && !sim::parse_int(m, min)) min = 0;
  if (!sim::parse_int(id, i) || !sim::parse_int(count, n))
    throw sim::InputError("SLURM_ARRAY_TASK_ID", "not an integer array task id/count");
  return parse_shard(std::to_string(i - min) + "/" + std::to_string(n), "SLURM_ARRAY_TASK_ID");
}

}  // namespace warpsim::sweeps
