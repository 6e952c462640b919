#pragma once
// Zeroed memory that costs, as far as the host allows, the pages written rather than the pages
// asked for: a structure a run uses only in part (a GPU's L2, an xz dictionary sized for the
// largest file) costs what it touches. `huge` maps pages of its own, advised as transparent huge
// pages, 2 MiB a page fault instead of 4 KiB, for large structures touched all over (on a
// virtual machine a page fault costs tens of microseconds). Otherwise the memory comes from the
// heap (calloc, which does not write pages the heap never used, but clears a block it hands out
// again). Many small structures made together, a GPU's 132 L1s, come from a ZeroPagesArena: one
// mapping, each piece after the last at a varied offset of its page as a heap would place it
// (mapped each starting a page, they made bench_core's readOffset ~25% slower: their hot lines
// fell on the same host cache sets).
#include <cstddef>

namespace warpsim::sim {

constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Whether a structure of `bytes` that a run touches here and there belongs on huge pages: from
// two of them on (an H100's L2, its SMs' warp slots and L1s). A smaller one, a 14-SM GPU's L1s,
// is touched in fewer 4 KB pages than one huge page would clear.
inline bool worth_huge_pages(std::size_t bytes) { return bytes >= 2 * kHugePageBytes; }

// At least `bytes` of zeroed memory aligned to `alignment` (a power of two up to 4096; 2 MiB
// when `huge`). Throws std::bad_alloc.
void* allocate_zeroed(std::size_t bytes, std::size_t alignment, bool huge);
// Gives back what allocate_zeroed(bytes, alignment, huge) returned (null: nothing).
void free_zeroed(void* memory, std::size_t bytes, bool huge);

// One mapping of zero pages handed out in pieces, one after another, none given back before the
// arena goes: a page is written, and costs a fault, only when a piece in it is first used.
class ZeroPagesArena {
 public:
  ZeroPagesArena() = default;
  // Room for `bytes` of pieces and their padding (reserved(), below); on transparent huge pages
  // where worth_huge_pages(bytes): a run uses a few pieces of each SM's, all over a large arena,
  // one fault per 2 MiB. Throws std::bad_alloc.
  explicit ZeroPagesArena(std::size_t bytes);
  ZeroPagesArena(const ZeroPagesArena&) = delete;
  ZeroPagesArena& operator=(const ZeroPagesArena&) = delete;
  ZeroPagesArena(ZeroPagesArena&& other) noexcept;
  ZeroPagesArena& operator=(ZeroPagesArena&& other) noexcept;
  ~ZeroPagesArena();

  // What a piece of `bytes` aligned to `alignment` (a power of two up to 4096) takes of an
  // arena's room: the piece, its alignment, and the gap a heap leaves between two blocks.
  static std::size_t reserved(std::size_t bytes, std::size_t alignment) { return bytes + alignment + kGap; }
  // The next zeroed piece. Throws std::bad_alloc when the room asked for at construction is used up.
  void* take(std::size_t bytes, std::size_t alignment);

 private:
  void release();
  static constexpr std::size_t kGap = 80;  // glibc's calloc header and allocate_zeroed's pointer
  std::byte* memory_ = nullptr;
  std::size_t size_ = 0, used_ = 0;
  bool huge_ = false;
};

}  // namespace warpsim::sim
