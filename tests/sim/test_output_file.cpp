// Output files are renamed into place (sim/output_file.hpp): a name that is not a regular file
// must be refused before anything is written, and a symbolic link must keep pointing at the file.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "sim/errors.hpp"
#include "sim/output_file.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

TEST_CASE("outputs that are not regular files are refused before writing", "[sim][output]") {
  // A fuzzed `sweep -o /dev/null` run as root replaced the device node with a result file.
  const fs::path dir = test::temp_dir("output-file");
  const fs::path fifo = dir / "pipe.h5";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_AS(sim::check_output_file(fifo, "-o"), sim::InputError);
  CHECK_THROWS_WITH(sim::check_output_file(fifo, "-o"), Catch::Matchers::Contains("not a regular file"));
  CHECK_THROWS_WITH(sim::check_output_file(dir, "-o"), Catch::Matchers::Contains("is a directory"));
  CHECK_THROWS_WITH(sim::check_output_file("", "-o"), Catch::Matchers::Contains("empty"));
  CHECK_THROWS_WITH(sim::check_output_file(dir / "missing" / "r.h5", "-o"), Catch::Matchers::Contains("does not exist"));
  // A link to the pipe is refused too (the check follows links).
  fs::create_symlink(fifo, dir / "to-pipe.h5");
  CHECK_THROWS_AS(sim::check_output_file(dir / "to-pipe.h5", "-o"), sim::InputError);
  // A new name, an existing regular file: fine.
  CHECK_NOTHROW(sim::check_output_file(dir / "new.h5", "-o"));
  std::ofstream(dir / "old.h5") << "x";
  CHECK_NOTHROW(sim::check_output_file(dir / "old.h5", "-o"));
  fs::remove_all(dir);
}

TEST_CASE("a symbolic link as output is written through, even before its file exists", "[sim][output]") {
  const fs::path dir = test::temp_dir("output-link");
  fs::create_directory(dir / "sub");
  fs::create_directory(dir / "data");
  // sub/r.h5 -> ../data/chain.h5 -> real.h5 (relative to data/), none of the files written yet.
  fs::create_symlink("../data/chain.h5", dir / "sub" / "r.h5");
  fs::create_symlink("real.h5", dir / "data" / "chain.h5");
  CHECK(fs::weakly_canonical(sim::output_target(dir / "sub" / "r.h5")) == fs::weakly_canonical(dir / "data" / "real.h5"));
  CHECK_NOTHROW(sim::check_output_file(dir / "sub" / "r.h5", "-o"));
  // Not a link: the name itself.
  CHECK(sim::output_target(dir / "plain.h5") == dir / "plain.h5");
  // A link into a directory that does not exist is refused.
  fs::create_symlink("../nowhere/x.h5", dir / "sub" / "lost.h5");
  CHECK_THROWS_WITH(sim::check_output_file(dir / "sub" / "lost.h5", "-o"), Catch::Matchers::Contains("does not exist"));
  fs::remove_all(dir);
}
