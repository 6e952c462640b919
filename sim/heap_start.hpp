#pragma once
// The start of the process's heap on transparent huge pages. Building a GPU and its first windows
// allocate a few megabytes in thousands of small blocks (132 SMs' vectors and stat names, their
// access logs growing), each new 4 KiB page of the heap costing a page fault, and on a virtual
// machine a fault costs ~12 us (1,000 of them in a row: 12 ms, against 2 ms for 16 huge pages):
// over half of the vectoradd trace's ~1,170 faults, ~6 ms of its ~35. So, before anything else,
// the heap is grown by `bytes` at once, from a 2 MiB boundary, and that stretch advised as huge
// pages (madvise MADV_HUGEPAGE, glibc's brk heap): what the run allocates there costs a fault per
// 2 MiB. The heap keeps growing `bytes` at a time after that (M_TOP_PAD, so a trim never gives
// the stretch back), on ordinary pages. What it costs: a huge page touched is resident whole,
// a few MB more at most (the corpus's runs: 0.2-8 MB).
#include <cstddef>

namespace warpsim::sim {

constexpr std::size_t kHeapStartBytes = std::size_t{16} << 20;

// Grows the heap by `bytes` from a 2 MiB boundary and advises that stretch as huge pages. Returns
// the bytes advised (0 where the heap is not glibc's brk heap or the host refuses).
std::size_t put_heap_start_on_huge_pages(std::size_t bytes = kHeapStartBytes);

}  // namespace warpsim::sim
