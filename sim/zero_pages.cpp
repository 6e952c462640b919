#include "sim/zero_pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

namespace warpsim::sim {
namespace {

std::size_t rounded_to_huge_pages(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

void* map_huge_pages(std::size_t bytes) {
  const std::size_t size = rounded_to_huge_pages(bytes);
  // A huge-page region must start on a 2 MiB boundary: map a page more and trim both ends.
  const std::size_t mapped = size + kHugePageBytes;
  void* memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  auto* start = static_cast<std::byte*>(memory);
  auto* aligned = reinterpret_cast<std::byte*>(rounded_to_huge_pages(reinterpret_cast<std::uintptr_t>(start)));
  if (aligned != start) munmap(start, static_cast<std::size_t>(aligned - start));
  const std::size_t tail = mapped - static_cast<std::size_t>(aligned - start) - size;
  if (tail != 0) munmap(aligned + size, tail);
#ifdef MADV_HUGEPAGE
  madvise(aligned, size, MADV_HUGEPAGE);  // advice only: harmless if refused
#endif
  return aligned;
}

}  // namespace

void* allocate_zeroed(std::size_t bytes, std::size_t alignment, bool huge) {
  if (huge) return map_huge_pages(bytes);
  // The block calloc returned is kept just before the aligned start, for free_zeroed.
  void* block = std::calloc(1, bytes + alignment + sizeof(void*));
  if (block == nullptr) throw std::bad_alloc();
  const auto first = reinterpret_cast<std::uintptr_t>(block) + sizeof(void*);
  auto* aligned = reinterpret_cast<void**>((first + alignment - 1) / alignment * alignment);
  aligned[-1] = block;
  return aligned;
}

void free_zeroed(void* memory, std::size_t bytes, bool huge) {
  if (memory == nullptr) return;
  if (huge) munmap(memory, rounded_to_huge_pages(bytes));
  else std::free(static_cast<void**>(memory)[-1]);
}

ZeroPagesArena::ZeroPagesArena(std::size_t bytes) : size_(bytes), huge_(worth_huge_pages(bytes)) {
  if (bytes == 0) return;
  if (huge_) {
    memory_ = static_cast<std::byte*>(map_huge_pages(bytes));
    return;
  }
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  memory_ = static_cast<std::byte*>(memory);
}

ZeroPagesArena::ZeroPagesArena(ZeroPagesArena&& other) noexcept
    : memory_(std::exchange(other.memory_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      used_(std::exchange(other.used_, 0)),
      huge_(other.huge_) {}

ZeroPagesArena& ZeroPagesArena::operator=(ZeroPagesArena&& other) noexcept {
  if (this != &other) {
    release();
    memory_ = std::exchange(other.memory_, nullptr);
    size_ = std::exchange(other.size_, 0);
    used_ = std::exchange(other.used_, 0);
    huge_ = other.huge_;
  }
  return *this;
}

ZeroPagesArena::~ZeroPagesArena() { release(); }

void ZeroPagesArena::release() {
  if (memory_ != nullptr) munmap(memory_, huge_ ? rounded_to_huge_pages(size_) : size_);
  memory_ = nullptr;
}

void* ZeroPagesArena::take(std::size_t bytes, std::size_t alignment) {
  // A heap puts its header before each block: the gap first, so that no two pieces start at the
  // same offset of their pages unless their sizes make them.
  const std::size_t start = (used_ + kGap + alignment - 1) / alignment * alignment;
  if (memory_ == nullptr || start + bytes > size_) throw std::bad_alloc();
  used_ = start + bytes;
  return memory_ + start;
}

}  // namespace warpsim::sim
