#pragma once
// run --launches LIST: which of a workload's launches to simulate, named by their 1-based
// position in its launch order (kernelslist.g's kernel lines), e.g. "3,5-9".
#include <cstdint>
#include <string>
#include <vector>

#include "traces/workload.hpp"

namespace warpsim::traces {

// The launches `list` names among a workload's `count`, as a mask indexed by launch number - 1.
// Throws sim::InputError("--launches", cause) for an empty list or item, anything but a number
// or a range A-B, launch 0, a range that runs backwards, a launch named twice, or one past
// `count`.
std::vector<bool> launch_mask(const std::string& list, std::uint32_t count);

// How many launch steps `workload` has.
std::uint32_t launch_count(const Workload& workload);

// Drops the launches `mask` leaves out (every copy stays, in order); returns the numbers of the
// launches kept, in order.
std::vector<std::uint32_t> keep_launches(Workload& workload, const std::vector<bool>& mask);

}  // namespace warpsim::traces
