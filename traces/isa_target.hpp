#pragma once
// Which SASS the kernel library should produce: the instruction sequence of a kernel depends on
// the compute capability it was compiled for (sm_20 Fermi, sm_35 Kepler, sm_90 Hopper).
namespace warpsim::traces {

struct IsaTarget {
  int sm_version = 90;  // 20, 35, 80, 90...
};

}  // namespace warpsim::traces
