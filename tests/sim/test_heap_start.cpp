// sim::put_heap_start_on_huge_pages: the heap grows by the stretch asked for and that stretch is
// advised as transparent huge pages, which is what spares a small run its page faults. Checked
// in a fresh process (this test binary run again for this test alone), whose heap is as small as
// warpsim's when it starts: late in the suite, this process's heap may no longer grow by brk.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/heap_start.hpp"
#include "tests/sim/smaps.hpp"

extern char** environ;

namespace {

constexpr const char* kChildVariable = "WARPSIM_TEST_HEAP_START_CHILD";

// In the fresh process: whether the call advised the 16 MiB asked for (the stretch begins at a
// 2 MiB boundary) and the mapping says so, from its first huge page up to the last 2 MiB
// boundary below the break and not past it.
bool advises_in_this_process() {
  const std::size_t advised = warpsim::sim::put_heap_start_on_huge_pages(std::size_t{16} << 20);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~((std::uintptr_t{2} << 20) - 1);
  auto huge = [](std::uintptr_t at) { return warpsim::test::advised_huge(reinterpret_cast<const void*>(at)); };
  return advised >= (std::size_t{16} << 20) && huge(last - advised) && huge(last - advised / 2) && !huge(last);
}

}  // namespace

TEST_CASE("the heap's start is grown at once and advised as huge pages", "[sim][memory]") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("AddressSanitizer's allocator does not use glibc's heap: nothing to check");
  return;
#endif
  if (!warpsim::test::host_has_huge_pages()) {
    WARN("this host has no transparent huge pages: nothing to check");
    return;
  }
  if (std::getenv(kChildVariable) != nullptr) std::_Exit(advises_in_this_process() ? 0 : 1);
  std::string self = "/proc/self/exe", name = "the heap's start is grown at once and advised as huge pages";
  std::string variable = std::string(kChildVariable) + "=1";
  std::vector<char*> env{variable.data()};
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  env.push_back(nullptr);
  char* argv[] = {self.data(), name.data(), nullptr};
  pid_t child = 0;
  REQUIRE(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv, env.data()) == 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
