#include "sim/zero_pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace warpsim::sim {
namespace {

constexpr std::size_t kSmallPage = 4096;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t rounded(std::size_t bytes, bool huge) {
  const std::size_t page = huge ? kHugePage : kSmallPage;
  return (bytes + page - 1) / page * page;
}

}  // namespace

void* map_zero_pages(std::size_t bytes, bool huge) {
  const std::size_t size = rounded(bytes, huge);
  // A huge-page region must start on a 2 MiB boundary: map a page more and trim both ends.
  const std::size_t mapped = size + (huge ? kHugePage : 0);
  void* memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  if (!huge) return memory;
  auto* start = static_cast<std::byte*>(memory);
  auto* aligned = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(start) + kHugePage - 1) / kHugePage * kHugePage);
  if (aligned != start) munmap(start, static_cast<std::size_t>(aligned - start));
  const std::size_t tail = mapped - static_cast<std::size_t>(aligned - start) - size;
  if (tail != 0) munmap(aligned + size, tail);
#ifdef MADV_HUGEPAGE
  madvise(aligned, size, MADV_HUGEPAGE);  // advice only: harmless if refused
#endif
  return aligned;
}

void unmap_zero_pages(void* memory, std::size_t bytes, bool huge) {
  if (memory != nullptr) munmap(memory, rounded(bytes, huge));
}

}  // namespace warpsim::sim
