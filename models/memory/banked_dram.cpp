// See banked_dram.hpp.
#include "models/memory/banked_dram.hpp"

#include <algorithm>
#include <cmath>

#include "sim/rng.hpp"

namespace warpsim::models::memory {

BankedDram::BankedDram(const DramSpec& spec, std::uint64_t core_clock_khz, std::uint64_t seed)
    : channels_(std::max<std::uint32_t>(1, spec.channels)),
      banks_(std::max<std::uint32_t>(1, spec.banks)),
      latency_min_(spec.latency_min),
      latency_span_(spec.latency_max > spec.latency_min ? spec.latency_max - spec.latency_min : 0),
      writes_in_refresh_(spec.writes_in_refresh),
      refresh_holds_bus_(spec.refresh_holds_bus),
      write_queue_(spec.write_queue),
      salt_(sim::Rng(seed, "gpu.dram").next()) {
  const double clock_hz = static_cast<double>(core_clock_khz) * 1e3;
  bytes_per_cycle_ = spec.bytes_per_second() / clock_hz;
  ticks_per_byte_ = static_cast<double>(kFrac) * channels_ / bytes_per_cycle_;
  burst_32_ = static_cast<std::uint64_t>(std::llround(32 * ticks_per_byte_));
  row_cycle_fixed_ = static_cast<std::uint64_t>(std::llround(kRowCycleNs * 1e-9 * clock_hz * kFrac));
  auto ns_fixed = [&](double ns) { return static_cast<std::uint64_t>(std::llround(ns * 1e-9 * clock_hz * kFrac)); };
  refresh_interval_fixed_ = std::max<std::uint64_t>(1, ns_fixed(spec.refresh_interval_ns));
  refresh_fixed_ = ns_fixed(spec.refresh_ns);
  unit_turn_fixed_ = ns_fixed(spec.unit_turn_ps * 1e-3);
  // A batch of writes between reads costs two bus turnarounds (read->write, write->read);
  // spread over the batch, each write burst carries its share.
  // With a write queue the turns are paid where the bus changes direction instead.
  if (write_queue_ == 0)
    write_turnaround_fixed_ = ns_fixed(2.0 * spec.turnaround_ns / std::max<std::uint32_t>(1, spec.write_batch));
  else
    bus_turn_fixed_ = ns_fixed(spec.turnaround_ns);
  bus_direction_.assign(write_queue_ > 0 ? channels_ : 0, kUnused);
  queued_writes_.resize(write_queue_ > 0 ? channels_ : 0);
  channel_free_.assign(channels_, 0);
  idle_left_.assign(channels_, IdleLeftToWrites{});
  bank_free_.assign(std::size_t{channels_} * banks_, 0);
  activate_ready_.assign(std::size_t{channels_} * banks_, 0);
  open_row_.assign(std::size_t{channels_} * banks_, ~std::uint64_t{0});
  if (unit_turn_fixed_ > 0) last_unit_.assign(std::size_t{channels_} * banks_, ~std::uint64_t{0});
  // Neighbouring channels form a refresh group (an HBM stack refreshes its channels together);
  // the groups' phases are spread evenly over the interval.
  const std::uint64_t groups = std::clamp<std::uint32_t>(spec.refresh_groups, 1, channels_);
  for (std::uint32_t channel = 0; channel < channels_; ++channel)
    refresh_phase_.push_back(refresh_interval_fixed_ * (std::uint64_t{channel} * groups / channels_) / groups);
}

sim::Cycle BankedDram::quiet_at() const {
  std::uint64_t last = 0;
  for (const auto* v : {&channel_free_, &bank_free_, &activate_ready_})
    if (!v->empty()) last = std::max(last, *std::max_element(v->begin(), v->end()));
  // Writes still queued go on the bus once it is free (a turn, then their bursts).
  for (std::uint32_t c = 0; c < queued_writes_.size(); ++c) {
    if (queued_writes_[c].empty()) continue;
    std::uint64_t end = channel_free_[c] + bus_turn_fixed_;
    for (const QueuedWrite& w : queued_writes_[c]) end += burst_ticks(w.bytes);
    last = std::max(last, end);
  }
  return (last + kFrac - 1) / kFrac;
}

BankedDram::Target BankedDram::map(std::uint64_t address) const {
  const std::uint64_t chunk = address / kInterleaveBytes;
  const std::uint64_t group = chunk / channels_;  // the chunk's address inside its channel
  const std::uint32_t channel = static_cast<std::uint32_t>((chunk + sim::mix64(group ^ salt_)) % channels_);
  constexpr std::uint64_t chunks_per_row = kRowBytes / kInterleaveBytes;
  const std::uint64_t row_index = group / chunks_per_row;  // consecutive rows go to consecutive banks
  return Target{channel, static_cast<std::uint32_t>(row_index % banks_), row_index / banks_, chunk};
}

BankedDram::Target BankedDram::map_memo(std::uint64_t address) {
  const std::uint64_t chunk = address / kInterleaveBytes;
  if (chunk != memo_chunk_) {
    memo_chunk_ = chunk;
    memo_target_ = map(address);
  }
  return memo_target_;
}

std::uint64_t BankedDram::after_refresh(std::uint32_t channel, std::uint64_t t) const {
  if (refresh_fixed_ == 0) return t;
  const std::uint64_t phase = refresh_phase_[channel];
  if (t < phase) return t;
  const std::uint64_t into = (t - phase) % refresh_interval_fixed_;
  return into < refresh_fixed_ ? t + (refresh_fixed_ - into) : t;
}

std::uint64_t BankedDram::burst_ticks(std::uint32_t bytes) const {
  return bytes == 32   ? burst_32_
         : bytes == 64 ? 2 * burst_32_
                       : static_cast<std::uint64_t>(std::llround(bytes * ticks_per_byte_));
}

BankedDram::Reservation BankedDram::reserve(const Target& t, std::uint32_t bytes, sim::Cycle now, bool is_write) {
  const std::uint64_t now_fixed = now * kFrac;
  const std::uint64_t burst = burst_ticks(bytes);
  const std::size_t b = std::size_t{t.channel} * banks_ + t.bank;
  const bool row_hit = open_row_[b] == t.row;
  const bool behind_open_row = row_hit && now_fixed < bank_free_[b];
  // The bank: every access holds it for its burst; a row miss also waits until a row cycle
  // (tRC) has passed since the bank's last activation, and starts the next one. An access to
  // the row just opened does not wait for that cycle, only for the bank's previous burst.
  std::uint64_t bank_start = std::max(now_fixed, bank_free_[b]);
  if (!refresh_holds_bus_) bank_start = after_refresh(t.channel, bank_start);
  if (!row_hit) {
    bank_start = std::max(bank_start, activate_ready_[b]);
    activate_ready_[b] = bank_start + row_cycle_fixed_;
  }
  bank_free_[b] = bank_start + burst;
  open_row_[b] = t.row;
  // The channel's data bus, reserved in arrival order (banks overlap their activations). With the
  // write queue a burst that goes the other way from the last one waits for the bus to turn.
  std::uint64_t bus_free = channel_free_[t.channel];
  const Direction direction = is_write ? kWriting : kReading;
  if (write_queue_ > 0 && bus_direction_[t.channel] != kUnused && bus_direction_[t.channel] != direction)
    bus_free += bus_turn_fixed_;
  const std::uint64_t queued_at = std::max(now_fixed, bus_free);
  IdleLeftToWrites& left = idle_left_[t.channel];
  if (is_write && writes_in_refresh_ && now_fixed < left.until && left.ticks >= burst) {
    // Drained while a refresh holds the reads: no turnaround of its own, the bus was idle.
    const std::uint64_t start = left.until - left.ticks;
    left.ticks -= burst;
    return Reservation{std::max(bank_start, start), false};
  }
  std::uint64_t bus_start = refresh_holds_bus_ ? after_refresh(t.channel, queued_at) : queued_at;
  if (unit_turn_fixed_ > 0 && last_unit_[b] != t.unit) {
    // The bank turns to another unit: bus time no data moves in, which writes may take below. On
    // an idle bus the turn is part of the unloaded latency the preset already gives.
    last_unit_[b] = t.unit;
    if (queued_at > now_fixed) bus_start += unit_turn_fixed_;
  }
  if (!is_write && writes_in_refresh_ && bus_start > queued_at) {
    // This read waits out a refresh (or a unit's turn) that the queue reached: its bus time is left
    // to writes. Time left of an earlier window still ahead of `now` is kept; a write's start is
    // then placed as if all of it lay just before `until` (only its acknowledgement reads it).
    if (now_fixed >= left.until) left.ticks = 0;
    left.ticks += bus_start - queued_at;
    left.until = bus_start;
  }
  channel_free_[t.channel] = bus_start + burst + (is_write ? write_turnaround_fixed_ : 0);
  if (write_queue_ > 0) bus_direction_[t.channel] = direction;
  return Reservation{std::max(bank_start, bus_start), behind_open_row};
}

std::uint64_t BankedDram::drain_writes(std::uint32_t channel) {
  // Each in its turn from when it came, so after the reads that were on the bus before it.
  std::vector<QueuedWrite>& queue = queued_writes_[channel];
  std::uint64_t last_start = 0;
  for (const QueuedWrite& w : queue) last_start = reserve(w.target, w.bytes, w.arrived, true).start;
  queue.clear();
  return last_start;
}

sim::Cycle BankedDram::read(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) {
  bytes_read_ += bytes;
  const Target t = map_memo(address);
  // Writes queued behind reads that have since left the bus idle went out in that idle time.
  if (write_queue_ > 0 && !queued_writes_[t.channel].empty() && channel_free_[t.channel] <= now * kFrac)
    drain_writes(t.channel);
  const Reservation r = reserve(t, bytes, now, false);
  // Unloaded latency: a read queued behind its open row's previous request answers at the
  // preset's minimum; any other anywhere in the preset's range, deterministically per address
  // (mean = the middle of the range, which is latency.csv's pointer-chase value on H100).
  std::uint32_t latency = latency_min_;
  if (!r.behind_open_row && latency_span_ > 0)
    latency += static_cast<std::uint32_t>(sim::mix64(address ^ salt_) % (latency_span_ + 1));
  return (r.start + kFrac - 1) / kFrac + latency;
}

sim::Cycle BankedDram::write(std::uint64_t address, std::uint32_t bytes, sim::Cycle now) {
  bytes_written_ += bytes;
  const Target t = map_memo(address);
  if (write_queue_ > 0) {
    std::vector<QueuedWrite>& queue = queued_writes_[t.channel];
    const bool reads_hold_bus = bus_direction_[t.channel] == kReading && channel_free_[t.channel] > now * kFrac;
    if (reads_hold_bus || !queue.empty()) {
      // Behind the reads: it waits in the queue (taken by the DRAM now), until the bus falls idle
      // or the queue is full.
      queue.push_back(QueuedWrite{t, bytes, now});
      if (queue.size() < write_queue_ && reads_hold_bus) return now;
      return (drain_writes(t.channel) + kFrac - 1) / kFrac;  // this write is the queue's last
    }
  }
  return (reserve(t, bytes, now, true).start + kFrac - 1) / kFrac;
}

}  // namespace warpsim::models::memory
