#pragma once
// Device addresses for a kernel's buffers, as cudaMalloc hands them out: the allocations of
// calibration/kernels.cu's main() in the same order and sizes, each at its own 2 MB-aligned
// base (cudaMalloc's granularity for large allocations), starting at a typical 64-bit UVA
// device address. Alignment matters: it decides which 32-byte sectors and 128-byte lines an
// access touches (S3.2-S3.4).
#include <cstdint>

namespace warpsim::traces::kernels {

class DeviceHeap {
 public:
  static constexpr std::uint64_t kFirstBase = 0x7f0000000000ull;
  static constexpr std::uint64_t kAlignment = 2ull << 20;

  // Base address of a fresh allocation of `bytes` bytes (at least one 2 MB unit).
  std::uint64_t allocate(std::uint64_t bytes) {
    std::uint64_t base = next_;
    std::uint64_t units = bytes == 0 ? 1 : (bytes + kAlignment - 1) / kAlignment;
    next_ += units * kAlignment;
    return base;
  }

 private:
  std::uint64_t next_ = kFirstBase;
};

}  // namespace warpsim::traces::kernels
