#pragma once
// Per-warp timelines of a run (`run --timeline FILE`): when each warp started and exited, on which
// SM, and when its first two loads' data came back, as tools/gpu-probes/timelines.cu and
// persist_timeline.cu record them on a real GPU, so that the model's block placement, warp
// lifetimes, slot turnarounds and latencies under load can be set beside the hardware's record by
// record.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "sim/time.hpp"

namespace warpsim::models {

struct WarpRecord {
  std::uint32_t kernel_slot = 0, sm = 0, warp = 0;  // warp: its index within the block
  std::uint64_t block = 0;                         // the block's linear id within its grid
  sim::Cycle start = 0, exit = 0;                  // first cycle it may issue; the cycle it exited
  // When the data of its first and second load that went to the memory system (L2 or beyond)
  // was there, in the order they issued; kNoData if it had none.
  static constexpr sim::Cycle kNoData = ~sim::Cycle{0};
  sim::Cycle first_data = kNoData, second_data = kNoData;
};

class WarpTimeline {
 public:
  void add(const WarpRecord& r) { records_.push_back(r); }
  // Moves `other`'s records to the end of these, leaving it empty (an SM's records of a window
  // ticked on another thread, models/core/sm_side_buffers.hpp).
  void take_from(WarpTimeline& other) {
    records_.insert(records_.end(), other.records_.begin(), other.records_.end());
    other.records_.clear();
  }
  const std::vector<WarpRecord>& records() const { return records_; }
  // CSV "launch,block,warp,smid,t_start,t_end,t_first_data,t_second_data" (cycles of the run's
  // clock; the last two empty where the warp had no such load), in exit order;
  // `launch_numbers[slot]` is the 1-based launch number of kernel slot `slot`. Written under a
  // temporary name and renamed (sim/output_file.hpp); throws InputError naming `origin` if it
  // cannot be.
  void write_csv(const std::filesystem::path& path, const std::vector<std::uint32_t>& launch_numbers,
                 const std::string& origin) const;

 private:
  std::vector<WarpRecord> records_;
};

}  // namespace warpsim::models
