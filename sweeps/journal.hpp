#pragma once
// The append-only record of finished points, kept beside the output (OUT.h5.journal). Each
// point is appended the moment it finishes and synced to disk in batches, so a sweep killed at
// any instant -- SIGKILL, a node failure, the end of a Slurm time limit -- loses at most the
// points still running. Started again with the same command, the sweep reads the journal and
// runs only the rest. The header carries a fingerprint of the resolved spec and the shard, so a
// journal is never applied to a different sweep.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "sweeps/point_result.hpp"

namespace warpsim::sweeps {

class Journal {
 public:
  // Opens or creates the journal. Throws InputError if it belongs to another sweep.
  Journal(std::filesystem::path path, std::uint64_t sweep_fingerprint, std::size_t metric_count);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Points finished by earlier runs; records cut short or damaged were skipped.
  const std::map<std::size_t, PointResult>& finished() const { return finished_; }
  std::size_t damaged_lines() const { return damaged_lines_; }

  void append(const PointResult& r);  // one write(2), so a record is never interleaved
  void sync();                        // fsync: what is appended so far survives a power cut
  // After the result file is safely in place the journal has nothing left to protect.
  void remove();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::map<std::size_t, PointResult> finished_;
  std::size_t damaged_lines_ = 0;
};

}  // namespace warpsim::sweeps
