#pragma once
// kernelslist.g (FORMAT.md section 1): the command list of an Accel-Sim trace directory,
// host-to-device copies and kernel launches in order, as a Workload whose launches open their
// .traceg only when the run reaches them.
#include <string>

#include "traces/workload.hpp"

namespace warpsim::traces::accelsim {

// A kernel named X.traceg that exists only as X.traceg.xz is read from that file.
// Throws InputError("kernelslist.g:line", ...) for a malformed MemcpyHtoD line, a kernel file
// that does not exist, or one that is neither .traceg nor .traceg.xz.
Workload read_kernelslist(const std::string& path);

// A Workload of one launch: a single .traceg / .traceg.xz file.
Workload single_traceg_workload(const std::string& path);

}  // namespace warpsim::traces::accelsim
