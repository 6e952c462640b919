#pragma once
// The banked DRAM model (dram_model.hpp): channels that each move a limited number of bytes per core cycle, banks inside them with
// one open row each, and an unloaded latency inside the preset's range (S2.7). Timing is
// "busy-until": a request reserves the channel's data bus for its burst and the bank for its row
// activation at the moment it is made, and learns when its data will be back. Requests arrive in
// roughly increasing time from the L2, so this stays deterministic and cheap (no event per burst).
#include <cstdint>
#include <string_view>
#include <vector>

#include "models/memory/dram_model.hpp"
#include "models/memory/dram_spec.hpp"
#include "sim/time.hpp"

namespace warpsim::models::memory {

class BankedDram final : public DramModel {
 public:
  static constexpr std::string_view kName = "banked";
  static constexpr std::string_view kDescription =
      "channels of banks with one open row each, refresh, unit turns and read/write turnarounds, busy-until timing";
  // Assumptions (no preset value; open to calibration):
  // - 256-byte interleave over channels, rotated per group of channels by an address hash so
  //   sequential streams load every channel equally and power-of-two strides still spread.
  static constexpr std::uint64_t kInterleaveBytes = 256;
  // - 2 KB rows per bank (GDDR5 and HBM pseudo-channels have 1-2 KB pages).
  static constexpr std::uint64_t kRowBytes = 2048;
  // - a bank activates a row at most once per row cycle, tRC ~ 48 ns (JEDEC GDDR5/HBM3 class);
  //   reads of the row it has open wait only for the bank's previous burst.
  static constexpr double kRowCycleNs = 48.0;
  // - with dram.writes_in_refresh, a write queued while a refresh holds the channel's reads is
  //   drained in the refresh's bus time, for nothing: the controller drains writes while a
  //   refresh holds the reads' banks, as DARP schedules per-bank refreshes while a batch of writes
  //   drains (Chang et al., "Improving DRAM Performance by Parallelizing Refreshes with Accesses",
  //   HPCA 2014). Only reads leave that time to writes; writes alone wait out the refresh as reads
  //   do (a bank's turn to another unit, below, leaves its bus time to writes the same way). The
  //   H100 moves a stream with a fifth of its bytes written as fast as the reads alone
  //   (h100-measured/stride_full.csv, strides 4 to 16).
  // - with dram.refresh_holds_bus false, a refresh holds its channel's banks, not its data bus:
  //   a request that needs a refreshing bank starts after the refresh, but the bus time it had
  //   reserved is not taken from the channel's other requests. The H200's lines each wait out a
  //   ~290 ns window every ~1.9 us, yet a read stream moves 94% of the pins
  //   (h200/refresh_load_*.csv.xz): a refresh costs a lone line, not a stream.
  // - dram.unit_turn_ps: a bank that turns to a 256-byte unit other than the one it served last
  //   takes that much bus time first, when the bus has a queue (an idle bus hides it in the
  //   unloaded latency). The H100 reads 64-byte pieces 64 B apart at 89% of its peak,
  //   128 B apart at 82% and 256 B apart at 70%, stepping where a unit holds one piece instead of
  //   more (h100-measured/sparse.csv, dram_spacing.csv): what costs is each unit visited.
  // - an open row answers at the preset's minimum latency only a read queued behind the bank's
  //   previous request; one that finds the bank idle answers as a row miss does. The H100 and
  //   the H200 show no gain from a row a read opened ~300 ns before (row_pairs_*.csv.xz in
  //   h100-measured and h200, analysis/validation/row_pairs.py: median 0 cycles sooner), whatever
  //   their controllers do with the row meanwhile.
  // - with dram.write_queue, a channel turns its bus round (dram.turnaround_ns each way) when its
  //   next burst goes the other way, and writes that come while reads hold the bus wait in its
  //   queue: drained when the bus falls idle, or when dram.write_queue of them are waiting. At
  //   light load each write-back is a turn of its own, which the reads behind it wait out; under
  //   a full queue a turn pair is shared by the queue's writes. The H200 moves a mix of reads and
  //   writes slower the more evenly it mixes them, and either alone at the pins' rate
  //   (h200/dram_mix.csv), and its loads wait for write-backs by the line, not the byte, only
  //   where reads flow beside them (h200/stream_latency*).

  // `core_clock_khz`: the clock its timing counts in.
  BankedDram(const DramSpec& spec, std::uint64_t core_clock_khz, std::uint64_t seed);

  sim::Cycle read(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) override;
  sim::Cycle write(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) override;
  // The first cycle at which every channel and bank has finished what it was given (and a new
  // row may open anywhere).
  sim::Cycle quiet_at() const override;

  std::uint32_t channels() const { return channels_; }
  // Peak bytes per core cycle over all channels.
  double bytes_per_cycle() const { return bytes_per_cycle_; }

 private:
  // Fixed point: 1/1024 core cycle, so a sector's burst on one of H100's 80 channels (1.51
  // cycles) does not round to 1 or 2 and a stream's time follows bytes / bandwidth.
  static constexpr std::uint64_t kFrac = 1024;
  struct Target {
    std::uint32_t channel, bank;
    std::uint64_t row;
    std::uint64_t unit;  // the 256-byte unit (address / kInterleaveBytes)
  };
  Target map(std::uint64_t address) const;
  // map(), remembering the last chunk's target: an L2 miss reads its line as two 64-byte halves
  // of one chunk, and a write-back writes its dirty sectors one by one.
  Target map_memo(std::uint64_t address);
  // What reserve() learnt: when the burst starts (fixed point) and whether the request is
  // answered from a row open for the request before it (so at the preset's minimum latency).
  struct Reservation {
    std::uint64_t start;
    bool behind_open_row;
  };
  // Reserves channel and bank for a burst of `bytes` asked for at `now`.
  Reservation reserve(const Target& t, std::uint32_t bytes, sim::Cycle now, bool is_write);
  // dram.write_queue: the writes waiting behind a channel's reads, put on its bus in order.
  struct QueuedWrite {
    Target target;
    std::uint32_t bytes;
    sim::Cycle arrived;
  };
  // Reserves them all; returns the last one's start (fixed point).
  std::uint64_t drain_writes(std::uint32_t channel);
  // A burst of `bytes` on a channel's bus, in fixed-point ticks.
  std::uint64_t burst_ticks(std::uint32_t bytes) const;
  // The first moment at or after `t` when the channel is not refreshing. Channels refresh at
  // staggered phases, as each HBM/GDDR channel schedules its own refreshes.
  std::uint64_t after_refresh(std::uint32_t channel, std::uint64_t t) const;

  std::uint32_t channels_ = 1, banks_ = 1;
  std::uint32_t latency_min_ = 0, latency_span_ = 0;
  bool writes_in_refresh_ = false, refresh_holds_bus_ = true;
  std::uint64_t row_cycle_fixed_ = 0;
  // Refresh (tREFI, tRFC) and the write share of read/write turnarounds, in fixed point.
  std::uint64_t refresh_interval_fixed_ = 0, refresh_fixed_ = 0, write_turnaround_fixed_ = 0;
  std::uint64_t unit_turn_fixed_ = 0;  // dram.unit_turn_ps
  std::uint32_t write_queue_ = 0;      // dram.write_queue (0: writes pay write_turnaround_fixed_)
  std::uint64_t bus_turn_fixed_ = 0;   // dram.turnaround_ns, paid per turn with the write queue
  // Per channel with the write queue: which way its last burst went (an unused bus turns for nothing).
  enum Direction : std::uint8_t { kUnused, kReading, kWriting };
  std::vector<Direction> bus_direction_;
  std::vector<std::vector<QueuedWrite>> queued_writes_;
  double bytes_per_cycle_ = 1;
  double ticks_per_byte_ = 1;  // fixed-point channel occupancy per byte
  std::uint64_t burst_32_ = 1;  // ... of one 32-byte sector
  std::uint64_t salt_ = 0;
  std::vector<std::uint64_t> channel_free_;  // fixed point
  std::vector<std::uint64_t> bank_free_;     // fixed point, channels x banks: its last burst's end
  std::vector<std::uint64_t> activate_ready_;  // ... the earliest next activation (last one + tRC)
  std::vector<std::uint64_t> open_row_;      // channels x banks; ~0 = closed
  std::vector<std::uint64_t> last_unit_;     // channels x banks: the unit it served last; ~0 = none
  std::vector<std::uint64_t> refresh_phase_;  // per channel: when its first refresh starts (fixed point)
  // The bus time a channel's reads last waited out (refresh windows, and units' turns with
  // dram.unit_turn_ps), which writes queued meanwhile may take (fixed point): `ticks` of it left,
  // ending at `until`.
  struct IdleLeftToWrites {
    std::uint64_t ticks = 0, until = 0;
  };
  std::vector<IdleLeftToWrites> idle_left_;
  std::uint64_t memo_chunk_ = ~std::uint64_t{0};
  Target memo_target_{0, 0, 0, 0};
};

}  // namespace warpsim::models::memory
