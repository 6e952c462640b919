#pragma once
// A deterministic slice of a sweep for one process of many (Slurm array task, MPI rank, or a
// hand-started --shard I/N). Points are dealt round-robin (index % count == shard), so every
// slice gets a similar mix of cheap and expensive points and the slices together are the sweep.
#include <cstddef>
#include <optional>
#include <string>

namespace warpsim::sweeps {

struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
  bool whole() const { return count == 1; }
  bool owns(std::size_t point) const { return point % count == index; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "I/N" with 0 <= I < N; InputError naming `where` otherwise.
Shard parse_shard(const std::string& text, const std::string& where = "--shard");
// SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT, when running inside an array job. Task ids are
// taken relative to SLURM_ARRAY_TASK_MIN so --array=1-8 works as well as 0-7.
std::optional<Shard> shard_from_slurm_environment();

}  // namespace warpsim::sweeps
