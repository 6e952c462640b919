#pragma once
// The steps of `warpsim arch derive`, in the order derive_preset() runs them. Each adds the values
// its measurements give to `out`, with their sources. `arch` is the base preset with the values of
// the steps before applied (`base` names the base preset in sources); derive_dispatch simulates
// the preset derived so far.
#include <string>

#include "analysis/derive/calibration_data.hpp"
#include "analysis/derive/derivation.hpp"
#include "models/arch.hpp"

namespace warpsim::analysis {

// device.csv: SMs, clocks, residency limits, L2 size and persistence limits, the memory bus;
// DRAM channels and L2 slices from the bus width at the base preset's width per channel.
void derive_device(const CalibrationData& d, const models::Arch& arch, const std::string& base, Derivation& out);

// latency.csv: L1 and L2 hit latencies and the DRAM latency range, each the measured cycles per
// dependent load less what else the chase loop spends per load.
void derive_latencies(const CalibrationData& d, const models::Arch& arch, const std::string& base,
                      Derivation& out);

// setaside_stores.csv, where the GPU has persisting L2: the L2's ways (the driver's grant step)
// and what a set-aside of each number of ways costs a write-back on its slice.
void derive_set_aside(const CalibrationData& d, const models::Arch& arch, const std::string& base, Derivation& out);

// offset.csv: whether L1 caches global loads and stores allocate in it; bandwidth.csv: the L2
// slices' bandwidth; offset.csv: the dirty lines an L2 set keeps and whether partial-sector stores
// fetch from DRAM.
void derive_memory(const CalibrationData& d, const models::Arch& arch, const std::string& base, Derivation& out);

// l2_slice_pairs.csv, where calibrate's slice-map family wrote it: l2.slice_pieces where that map
// places every measured pair of lines as measured (one slice or two), else the consecutive map.
void derive_slice_map(const CalibrationData& d, const models::Arch& arch, Derivation& out);

// dispatch.csv and the shortest rows of offset.csv and stride.csv: the GigaThread engine's block
// rate, the SM's warp launch interval, a kernel's start time and the host's launch overhead. The
// last three set measured times beside the model's own for the same kernels, run on `base` with
// the values derived so far.
void derive_dispatch(const CalibrationData& d, const std::string& base, Derivation& out);

// offset.csv: the DRAM write batch whose read/write turnarounds make readOffset at the largest n
// (a DRAM-bound copy) as long in the model as measured, on `base` with the values derived so far.
void derive_write_batch(const CalibrationData& d, const std::string& base, Derivation& out);

}  // namespace warpsim::analysis
