#include "models/sampling/sample_record.hpp"

#include "sim/attribution.hpp"

namespace warpsim::models::sampling {

LaunchTotals with_skipped(LaunchTotals detailed, const SampleRecord& record) {
  sim::add_counts(detailed.gpu, record.added.gpu);
  sim::add_counts(detailed.memory, record.added.memory);
  detailed.gpu.cycles += record.skipped_cycles;
  return detailed;
}

}  // namespace warpsim::models::sampling
