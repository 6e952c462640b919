#include "sim/heap_start.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace warpsim::sim {

std::size_t put_heap_start_on_huge_pages(std::size_t bytes) {
// AddressSanitizer's allocator is not glibc's heap: nothing to advise there.
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  // A block under the mmap threshold (128 KiB unless glibc raised it) comes from the brk heap;
  // once the heap's free top (mallinfo2's keepcost) cannot hold the blocks taken, the heap grows
  // by a block and M_TOP_PAD. The blocks are held until the break moves, then given back to the
  // top, which the pad keeps from being trimmed.
  if (mallopt(M_TOP_PAD, static_cast<int>(bytes)) != 1) return 0;
  constexpr std::size_t kBlock = 120 << 10;
  void* const before = sbrk(0);
  const std::size_t enough = mallinfo2().keepcost / kBlock + 2;  // more than the free top holds
  std::vector<void*> held;
  held.reserve(enough);
  std::uintptr_t start = 0;
  while (held.size() < enough) {
    held.push_back(std::malloc(kBlock));
    if (held.back() == nullptr) break;
    if (sbrk(0) != before) {
      start = reinterpret_cast<std::uintptr_t>(held.back());
      break;
    }
  }
  for (void* block : held) std::free(block);
  if (start == 0) return 0;
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t first = (start + kHuge - 1) & ~(kHuge - 1), last = end & ~(kHuge - 1);
  if (last <= first) return 0;
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) != 0) return 0;
  return last - first;
#else
  (void)bytes;
  return 0;
#endif
}

}  // namespace warpsim::sim
