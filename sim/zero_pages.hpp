#pragma once
// Anonymous memory straight from the kernel: zero pages the host maps as they are first
// written, so a large structure a run uses only in part costs only what it touches (a GPU's
// caches, its warp slots, an xz dictionary sized for the largest file). `huge` advises
// transparent huge pages, 2 MiB a page fault instead of 4 KiB, for large structures touched all
// over: on a virtual machine a page fault costs tens of microseconds.
#include <cstddef>

namespace warpsim::sim {

// At least `bytes` of zeroed memory, aligned to its page size (2 MiB when `huge`). Throws
// std::bad_alloc.
void* map_zero_pages(std::size_t bytes, bool huge);
// Gives back what map_zero_pages(bytes, huge) returned.
void unmap_zero_pages(void* memory, std::size_t bytes, bool huge);

}  // namespace warpsim::sim
