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

// Opens the first launch now rather than when the run reaches it, so that its blocks are read on
// their own thread while the caller builds the GPU (a short trace's run otherwise waits for its
// first blocks after the ~8 ms an H100's construction takes); the step hands out that source.
// Errors in the launch's file surface here, before the GPU is built.
void open_first_launch(Workload& workload);

}  // namespace warpsim::traces
