#pragma once
// Where a traced kernel came from, for `warpsim trace info` and for .wtrace files, which carry
// it along so that a converted trace still says which tracer and SM version produced it.
#include <string>

#include "traces/kernel_source.hpp"

namespace warpsim::traces {

struct TraceOrigin {
  std::string format;          // "accelsim", "wtrace <- accelsim", "library"...
  std::string tracer_version;  // Accel-Sim tracer version as written ("5", "1.2", "legacy"); "" if none
  int binary_version = 0;      // SM version the SASS was compiled for (80 = sm_80); 0 if unknown
};

// A KernelSource read from a trace file, which knows its origin.
class TracedKernelSource : public KernelSource {
 public:
  virtual TraceOrigin origin() const = 0;
};

}  // namespace warpsim::traces
