#pragma once
// What /proc/self/smaps says of this process's mappings: which are advised as transparent huge
// pages ("hg" among their VmFlags). Tests of memory that a run should take on huge pages.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace warpsim::test {

// Whether the kernel has transparent huge pages at all (else no mapping is ever advised so).
inline bool host_has_huge_pages() { return std::filesystem::exists("/sys/kernel/mm/transparent_hugepage"); }

// Calls visit(from, to, advised_huge) for each mapping.
template <typename Visit>
void for_each_mapping(Visit visit) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  std::uintptr_t from = 0, to = 0;
  while (std::getline(smaps, line)) {
    std::uintptr_t a = 0, b = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> a >> dash >> b && dash == '-') {
      from = a;
      to = b;
    } else if (line.rfind("VmFlags:", 0) == 0) {
      visit(from, to, line.find(" hg") != std::string::npos);
    }
  }
}

// Whether the mapping that holds `address` is advised as huge pages.
inline bool advised_huge(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  bool huge = false;
  for_each_mapping([&](std::uintptr_t from, std::uintptr_t to, bool hg) {
    if (from <= at && at < to) huge = hg;
  });
  return huge;
}

// The bytes of all mappings advised as huge pages.
inline std::uint64_t huge_advised_bytes() {
  std::uint64_t bytes = 0;
  for_each_mapping([&](std::uintptr_t from, std::uintptr_t to, bool hg) {
    if (hg) bytes += to - from;
  });
  return bytes;
}

}  // namespace warpsim::test
