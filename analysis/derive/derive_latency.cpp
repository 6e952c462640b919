// Load-to-use latencies from the pointer chase (latency.csv: one thread, p = next[p], cycles per
// dependent load from clock64), the arithmetic hopper-h100.ini's comments give for its own:
// - every step of the measured loop is an LDG and the IMAD.WIDE that turns the loaded index into
//   the next address (kernels.sass, chase), so a level's hit latency is its cycles per load less
//   the IMAD's latency (latency.int, which the chase cannot measure: inherited);
// - at the DRAM level a load also waits, on average, for the refresh under way: with tRFC / tREFI
//   of the time refreshing and half a tRFC left when a load meets one, (tRFC / tREFI) x tRFC / 2
//   (the model refreshes as dram.refresh_ns and dram.refresh_interval_ns say). What remains is
//   the mean unloaded latency; the range around it keeps the base preset's spread;
// - with the L2 in partitions (l2.partitions, inherited), the chased lines' homes are spread over
//   them: a miss whose home is another partition takes l2.far_latency more, so the preset's
//   latency (a miss whose home is near) is the mean less far_latency x (partitions - 1) / partitions.
#include <cmath>

#include "analysis/derive/derive_steps.hpp"

namespace warpsim::analysis {
namespace {

struct Level {
  double mean = 0;        // cycles per dependent load, over the level's rows
  std::string rows;       // "latency.csv:8-9"
  std::string measured;   // "287.4 and 288.3 cycles per dependent load at 1024 and 16384 KB"
};

Level level(const CsvTable& t, const std::string& name) {
  Level l;
  const auto rows = rows_where(t, "level", name);  // calibration_data.cpp: at least one
  std::string values, sizes;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::string sep = k == 0 ? "" : k + 1 == rows.size() ? " and " : ", ";
    l.mean += t.number(rows[k], "cycles_per_dependent_load") / double(rows.size());
    values += sep + t.rows[rows[k]].at("cycles_per_dependent_load");
    sizes += sep + t.rows[rows[k]].at("working_set_kb");
  }
  l.rows = cite(t, rows);
  l.measured = values + " cycles per dependent load at " + sizes + " KB";
  if (rows.size() > 1) l.measured += ", mean " + fixed(l.mean, 2);
  return l;
}

}  // namespace

void derive_latencies(const CalibrationData& d, const models::Arch& arch, const std::string& base, Derivation& out) {
  const double imad = arch.units.latency[static_cast<int>(traces::Unit::Int)];
  const std::string less_imad =
      ", less the chase loop's address IMAD.WIDE (latency.int " + fixed(imad, 0) + ", inherited from " + base + ")";
  for (const auto& [name, key] : {std::pair{"L1", "l1.hit_latency"}, std::pair{"L2", "l2.hit_latency"}}) {
    const Level l = level(d.latency, name);
    const double cycles = l.mean - imad;
    out.set(key, std::max<std::int64_t>(1, std::llround(cycles)),
            l.rows + ": " + l.measured + less_imad + " = " + fixed(cycles, 2));
  }

  const Level dram = level(d.latency, "DRAM");
  const double refresh_cycles = double(arch.dram.refresh_ns) * double(arch.gpu.core_clock_khz) / 1e6;
  const double refresh_wait = double(arch.dram.refresh_ns) / arch.dram.refresh_interval_ns * refresh_cycles / 2;
  const double far_share =
      arch.l2.partitions > 1 ? double(arch.l2.far_latency) * (arch.l2.partitions - 1) / arch.l2.partitions : 0;
  const double mean = dram.mean - imad - refresh_wait;
  const std::int64_t centre = std::llround(mean - far_share);
  const std::int64_t half_spread = (std::int64_t{arch.dram.latency_max} - arch.dram.latency_min) / 2;
  const std::string source = dram.rows + ": " + dram.measured + " = " + fixed(imad, 0) + " (address IMAD.WIDE) + " +
                             fixed(refresh_wait, 1) + " (the refresh a load waits for: " +
                             std::to_string(arch.dram.refresh_ns) + " / " +
                             std::to_string(arch.dram.refresh_interval_ns) + " ns x " + fixed(refresh_cycles, 0) +
                             " cycles / 2) + unloaded mean " + fixed(mean, 1) +
                             (far_share > 0 ? ", of which " + fixed(far_share, 1) + " is the far L2 partition's share (l2.far_latency x " +
                                                  std::to_string(arch.l2.partitions - 1) + " / " +
                                                  std::to_string(arch.l2.partitions) + ", inherited)"
                                            : std::string()) +
                             "; the range " +
                             std::to_string(centre) + " +-" + std::to_string(half_spread) + " keeps " + base +
                             "'s spread (an assumption there)";
  out.set("dram.latency_min", std::max<std::int64_t>(1, centre - half_spread), source);
  out.set("dram.latency_max", std::max<std::int64_t>(1, centre + half_spread), source);
}

}  // namespace warpsim::analysis
