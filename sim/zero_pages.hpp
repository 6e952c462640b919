#pragma once
// Zeroed memory that costs, as far as the host allows, the pages written rather than the pages
// asked for: a structure a run uses only in part (a GPU's L2, an xz dictionary sized for the
// largest file) costs what it touches. `huge` maps pages of its own, advised as transparent huge
// pages, 2 MiB a page fault instead of 4 KiB, for large structures touched all over (on a
// virtual machine a page fault costs tens of microseconds). Otherwise the memory comes from the
// heap (calloc, which does not write pages the heap never used): small structures many of which
// are hot together, a GPU's 132 L1s, start at varied offsets of their pages there; mapped, each
// starting a page, they made bench_core's readOffset ~25% slower.
#include <cstddef>

namespace warpsim::sim {

// At least `bytes` of zeroed memory aligned to `alignment` (a power of two up to 4096; 2 MiB
// when `huge`). Throws std::bad_alloc.
void* allocate_zeroed(std::size_t bytes, std::size_t alignment, bool huge);
// Gives back what allocate_zeroed(bytes, alignment, huge) returned (null: nothing).
void free_zeroed(void* memory, std::size_t bytes, bool huge);

}  // namespace warpsim::sim
