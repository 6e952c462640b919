// The values CUDA reports of the GPU (device.csv), and those the base preset's assumptions tie to
// them: warps per scheduler follow the SM's warps, DRAM channels the bus width; and the L2's slices
// as ncu's counters count them.
#include <algorithm>
#include <cmath>

#include "analysis/derive/derive_steps.hpp"
#include "sim/errors.hpp"

namespace warpsim::analysis {
namespace {

std::int64_t count(const CsvTable& table, const char* column) {
  return static_cast<std::int64_t>(table.number(0, column));
}

constexpr const char* kSectorsSum = "lts__t_sectors.sum";
constexpr const char* kSectorsAvg = "lts__t_sectors.avg";

}  // namespace

void derive_device(const CalibrationData& d, const models::Arch& base, const std::string& base_name, Derivation& out) {
  const CsvTable& dev = d.device;
  const std::string at = cite(dev, 0) + ": ";
  if (d.gpu.find('#') != std::string::npos)
    throw sim::InputError(dev.where(0), "name '" + d.gpu + "': a preset value cannot hold '#' (its comment mark)");
  out.set("gpu.name", d.gpu, at + "name");
  // "9.0" -> 90, as the kernel library names its SASS (sm_90).
  const std::string cc = dev.rows[0].at("cc");
  const auto dot = cc.find('.');
  std::int64_t major = 0, minor = 0;
  if (dot == std::string::npos || !sim::parse_int(cc.substr(0, dot), major) || !sim::parse_int(cc.substr(dot + 1), minor))
    throw sim::InputError(dev.where(0), "cc '" + cc + "': expected MAJOR.MINOR");
  out.set("gpu.sm_version", major * 10 + minor, at + "cc " + cc);
  out.set("gpu.sms", count(dev, "sms"), at + "sms");
  out.set("gpu.core_clock_khz", count(dev, "clockKHz"), at + "clockKHz");

  const std::int64_t warps = count(dev, "maxThreadsPerSM") / count(dev, "warpSize");
  out.set("sm.max_threads", count(dev, "maxThreadsPerSM"), at + "maxThreadsPerSM");
  out.set("sm.max_warps", warps, at + "maxThreadsPerSM / warpSize");
  out.set("sm.max_blocks", count(dev, "maxBlocksPerSM"), at + "maxBlocksPerSM");
  out.set("sm.max_threads_per_block", count(dev, "maxThreadsPerBlock"), at + "maxThreadsPerBlock");
  out.set("sm.registers", count(dev, "regsPerSM"), at + "regsPerSM");
  out.set("sm.shared_bytes", count(dev, "smemPerSM"), at + "smemPerSM");
  out.set("sm.max_shared_per_block", count(dev, "smemPerBlockOptin"), at + "smemPerBlockOptin");
  out.set("sm.shared_reserved_per_block", count(dev, "reservedSmemPerBlock"), at + "reservedSmemPerBlock");
  const std::int64_t schedulers = base.sm.schedulers;
  out.set("sm.max_warps_per_scheduler", (warps + schedulers - 1) / schedulers,
          at + std::to_string(warps) + " warps (maxThreadsPerSM / warpSize) over sm.schedulers " +
              std::to_string(schedulers) + " (inherited from " + base_name + ")");

  out.set("l2.size_bytes", count(dev, "l2"), at + "l2");
  const bool persistence = count(dev, "persistMax") > 0;
  out.set("l2.persistence", persistence ? "true" : "false",
          at + "persistMax " + (persistence ? "> 0" : "= 0: no persisting L2 on this GPU"));
  out.set("l2.persist_max_bytes", count(dev, "persistMax"), at + "persistMax");
  out.set("l2.max_window_bytes", count(dev, "maxWindow"), at + "maxWindow");

  const std::int64_t bus = count(dev, "busWidth"), mem_khz = count(dev, "memClockKHz");
  out.set("dram.bus_width_bits", bus, at + "busWidth");
  const std::int64_t rate = mem_khz * 2 / 1000;
  out.set("dram.data_rate_mtps", rate,
          at + "memClockKHz " + std::to_string(mem_khz) + ", double data rate -> " +
              fixed(double(bus) / 8 * double(rate) * 1e6 / 1e12, 2) + " TB/s");
  // The base preset's channel width and slices per channel are assumptions; kept, applied to
  // this bus (hopper-h100: 5120 bits as 80 64-bit channels, one L2 slice per channel).
  const double bits_per_channel = double(base.dram.bus_width_bits) / base.dram.channels;
  const auto channels = std::max<std::int64_t>(1, std::llround(double(bus) / bits_per_channel));
  out.set("dram.channels", channels,
          at + "busWidth " + std::to_string(bus) + " in " + fixed(bits_per_channel, 0) + "-bit channels, as " +
              base_name + " divides its " + std::to_string(base.dram.bus_width_bits) + " bits into " +
              std::to_string(base.dram.channels) + " (an assumption there)");
  // Refresh groups are the base's width a group (hopper-h100: 1024 bits, an HBM3 stack, 16 of its
  // channels refreshing together) applied to this bus: the H200's 6016 bits make six.
  const double bits_per_group = double(base.dram.bus_width_bits) / base.dram.refresh_groups;
  const auto groups = std::clamp<std::int64_t>(std::llround(double(bus) / bits_per_group), 1, channels);
  out.set("dram.refresh_groups", groups,
          at + "busWidth " + std::to_string(bus) + " in groups of " + fixed(bits_per_group, 0) + " bits, as " +
              base_name + " refreshes its " + std::to_string(base.dram.bus_width_bits) + " bits in " +
              std::to_string(base.dram.refresh_groups) + " groups (measured there)");
  // L2 slices: those ncu's L2 counters average over (lts__t_sectors.sum / .avg in offset.csv,
  // where the probes profiled with its full set): 80 on the H100; 94 on the H200, whose
  // device__attribute_l2s_count says 96 though its counters count 94 slices, as many as its DRAM
  // channels. Else the base's slices a channel, applied to this bus.
  const auto has = [&](const char* c) {
    return std::find(d.offset.columns.begin(), d.offset.columns.end(), c) != d.offset.columns.end();
  };
  if (has(kSectorsSum) && has(kSectorsAvg)) {
    std::int64_t slices = 0;
    for (std::size_t row = 0; row < d.offset.rows.size(); ++row) {
      const double sum = d.offset.number(row, kSectorsSum), avg = d.offset.number(row, kSectorsAvg);
      const double units = avg > 0 ? sum / avg : 0;
      const auto rounded = static_cast<std::int64_t>(std::llround(units));
      if (rounded < 1 || std::abs(units - double(rounded)) > 0.01)
        throw sim::InputError(d.offset.where(row), std::string(kSectorsSum) + " / " + kSectorsAvg + " = " +
                                                       fixed(units, 3) + ": not a whole number of L2 slices");
      if (slices != 0 && rounded != slices)
        throw sim::InputError(d.offset.where(row), std::string(kSectorsSum) + " / " + kSectorsAvg + " = " +
                                                       std::to_string(rounded) + " L2 slices, where the first row has " +
                                                       std::to_string(slices));
      slices = rounded;
    }
    out.set("l2.slices", slices,
            cite(d.offset, 0) + ": " + kSectorsSum + " / " + kSectorsAvg + ", every row (the slices ncu's L2 counters count)");
    return;
  }
  const auto slices = std::max<std::int64_t>(1, std::llround(double(channels) * base.l2.slices / base.dram.channels));
  out.set("l2.slices", slices,
          "dram.channels " + std::to_string(channels) + " x " + fixed(double(base.l2.slices) / base.dram.channels, 2) +
              " slices a channel, as " + base_name + " has (" + std::to_string(base.l2.slices) + " slices, " +
              std::to_string(base.dram.channels) + " channels; an assumption there)");
}

}  // namespace warpsim::analysis
