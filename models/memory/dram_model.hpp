#pragma once
// The seam a DRAM model plugs into: what the L2 asks of the memory behind it. The L2 reads the
// sectors it misses and writes back the dirty ones it evicts; the memory system asks when the
// DRAM has gone quiet (the end of a run) and reads the byte counters (dram__bytes_read.sum,
// dram__bytes_write.sum). One virtual call per L2 miss or write-back, which is small beside the
// miss's own work; `dram.model` in the preset chooses the model (dram_models.hpp).
#include <cstdint>

#include "sim/time.hpp"

namespace warpsim::models::memory {

class DramModel {
 public:
  virtual ~DramModel() = default;

  // A read of `bytes` at `address` (one L2 sector fill) requested at core cycle `now`; returns
  // the cycle the data is back at the SM that missed (the preset's DRAM latency is the whole
  // miss path: latency.csv's pointer chase measures it end to end).
  virtual sim::Cycle read(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) = 0;
  // A write-back of `bytes` at `address` (a dirty L2 sector evicted): uses bandwidth. Returns the
  // cycle the DRAM takes it (for a channel, its burst starts), until which the L2 still holds the
  // data: a store that caused the write-back is acknowledged no sooner (l2_cache.hpp).
  virtual sim::Cycle write(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) = 0;
  // The first cycle at which the DRAM has finished all it was given: after it, it is as if idle.
  virtual sim::Cycle quiet_at() const = 0;

  // Kept here so every model counts alike; a model adds to them in read() and write().
  std::uint64_t bytes_read() const { return bytes_read_; }
  std::uint64_t bytes_written() const { return bytes_written_; }
  const std::uint64_t& bytes_read_counter() const { return bytes_read_; }
  const std::uint64_t& bytes_written_counter() const { return bytes_written_; }

 protected:
  std::uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace warpsim::models::memory
