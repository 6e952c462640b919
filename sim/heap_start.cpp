#include "sim/heap_start.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace warpsim::sim {

std::size_t put_heap_start_on_huge_pages(std::size_t bytes) {
// AddressSanitizer's allocator is not glibc's heap: nothing to advise there.
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  // The break is first moved up to a 2 MiB boundary here (glibc takes memory another caller got
  // from sbrk in stride: its heap goes on after it), so that the stretch begins with a whole
  // huge page: the blocks a GPU's construction allocates first would otherwise land in up to
  // 2 MiB of ordinary pages before it. The gap is never touched.
  const auto now = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t aligned = (now + kHuge - 1) & ~(kHuge - 1);
  if (aligned > now && sbrk(static_cast<std::intptr_t>(aligned - now)) == reinterpret_cast<void*>(-1)) return 0;
  // A block under the mmap threshold (128 KiB unless glibc raised it) comes from the brk heap;
  // once the heap's free top (mallinfo2's keepcost) cannot hold the blocks taken, the heap grows
  // by a block and M_TOP_PAD, from the aligned break. The blocks are held until the break
  // moves, then given back to the top, which the pad keeps from being trimmed.
  if (mallopt(M_TOP_PAD, static_cast<int>(bytes)) != 1) return 0;
  constexpr std::size_t kBlock = 120 << 10;
  const std::size_t enough = mallinfo2().keepcost / kBlock + 2;  // more than the free top holds
  std::vector<void*> held;
  held.reserve(enough);
  bool grown = false;
  while (held.size() < enough && !grown) {
    held.push_back(std::malloc(kBlock));
    if (held.back() == nullptr) break;
    grown = reinterpret_cast<std::uintptr_t>(sbrk(0)) > aligned;
  }
  for (void* block : held) std::free(block);
  if (!grown) return 0;
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHuge - 1);
  if (last <= aligned) return 0;
  if (madvise(reinterpret_cast<void*>(aligned), last - aligned, MADV_HUGEPAGE) != 0) return 0;
  // glibc wrote the new top's header at the stretch's start before the advice, so its first 2 MiB
  // hold an ordinary page and would fill with more: collapsed into a huge page now where the host
  // can (Linux 6.1 on).
  constexpr int kCollapse = 25;  // MADV_COLLAPSE, which older headers lack
  madvise(reinterpret_cast<void*>(aligned), kHuge, kCollapse);
  return last - aligned;
#else
  (void)bytes;
  return 0;
#endif
}

}  // namespace warpsim::sim
