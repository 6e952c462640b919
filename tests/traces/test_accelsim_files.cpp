// Accel-Sim trace files: kernelslist.g (memcpy steps, launches, missing kernels, X.traceg read
// from X.traceg.xz) and .xz input (same as the plain file, streams one after another, padding,
// junk after the end, truncation).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/test_support.hpp"
#include "tests/traces/accelsim_error_helpers.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/accelsim/byte_source.hpp"
#include "traces/accelsim/kernelslist.hpp"
#include "traces/open_workload.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
namespace fs = std::filesystem;

TEST_CASE("kernelslist.g: memcpy steps, launches, a missing kernel file", "[accelsim]") {
  std::string dir = temp_dir("kernelslist");
  write_file(dir + "/kernel-1.traceg", one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "}));
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\n\nkernel-1.traceg\nsomething else\n");
  Workload w = open_workload(dir + "/kernelslist.g");
  REQUIRE(w.steps.size() == 2);
  CHECK(w.steps[0].kind == WorkloadStep::Kind::Memcpy);
  CHECK(w.steps[0].memcpy.device_address == 0x7fc841500000u);
  CHECK(w.steps[0].memcpy.bytes == 32768);
  CHECK(w.steps[1].launch.label == "kernel-1.traceg");
  CHECK(w.steps[1].launch.open()->info().name == "_Z4testv");
  CHECK(open_workload(dir).steps.size() == 2);  // the directory works too

  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\nkernel-2.traceg\n");
  std::string e = input_error_of([&] { open_workload(dir + "/kernelslist.g"); });
  CHECK(contains(e, "kernelslist.g:2: "));
  CHECK(contains(e, "'kernel-2.traceg' not found"));
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc84150zz00,32768\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "kernelslist.g:1: "));
  // A copy whose range wraps past 2^64 (fuzzed: accepted, and then invalidated a wrapped range).
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0xffffffffffffffff,4096\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "runs past the end"));
  CHECK(contains(input_error_of([&] { open_workload(dir + "/nothing.traceg"); }), "no such file"));
  // A list that launches nothing (only copies, or not a kernelslist at all) is the wrong file.
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007fc841500000,32768\nsomething else\n");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "no kernel launch"));
  write_file(dir + "/kernelslist.g", "x");
  CHECK(contains(input_error_of([&] { open_workload(dir + "/kernelslist.g"); }), "kernelslist.g: no kernel launch"));
  fs::remove_all(dir);
}

TEST_CASE("kernelslist.g naming X.traceg reads X.traceg.xz when only that exists", "[accelsim][xz]") {
  std::string dir = temp_dir("kernelslist-xz");
  write_file(dir + "/kernel-1.traceg", one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "}));
  REQUIRE(std::system(("xz " + dir + "/kernel-1.traceg").c_str()) == 0);  // leaves only kernel-1.traceg.xz
  REQUIRE_FALSE(fs::exists(dir + "/kernel-1.traceg"));
  write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
  Workload w = open_workload(dir + "/kernelslist.g");
  REQUIRE(w.steps.size() == 1);
  CHECK(w.steps[0].launch.label == "kernel-1.traceg");
  CHECK(w.steps[0].launch.open()->info().name == "_Z4testv");

  // Both present: the name as written wins (here a different kernel, to tell them apart).
  {
    std::string text = one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "});
    text.replace(text.find("_Z4testv"), 8, "_Z4liveV");
    write_file(dir + "/kernel-1.traceg", text);
  }
  CHECK(open_workload(dir + "/kernelslist.g").steps[0].launch.open()->info().name == "_Z4liveV");

  // Neither: the error names both places looked at.
  write_file(dir + "/kernelslist.g", "kernel-2.traceg\n");
  std::string e = input_error_of([&] { open_workload(dir + "/kernelslist.g"); });
  CHECK(contains(e, "kernelslist.g:1: "));
  CHECK(contains(e, "kernel-2.traceg.xz"));

  // The calibration corpus is stored this way (issue 25).
  Workload mm = open_workload(shared_path("calibration/h100/apps/matrixMul/kernelslist.g"));
  std::size_t launches = 0;
  for (const auto& step : mm.steps)
    if (step.kind == WorkloadStep::Kind::Launch) {
      ++launches;
      CHECK(step.launch.open()->info().block.count() == 256);
    }
  CHECK(launches == 2);
  fs::remove_all(dir);
}

TEST_CASE("a .traceg.xz reads the same as its .traceg", "[accelsim][xz]") {
  std::string dir = temp_dir("xz");
  std::string src = shared_path("traces/vectoradd-sm80-v5/kernel-1.traceg");
  fs::copy_file(src, dir + "/kernel-1.traceg");
  REQUIRE(std::system(("xz -k " + dir + "/kernel-1.traceg").c_str()) == 0);
  accelsim::TracegKernelSource text(dir + "/kernel-1.traceg"), xz(dir + "/kernel-1.traceg.xz");
  auto a = read_all(text), b = read_all(xz);
  REQUIRE(a.size() == 26601);
  REQUIRE(a.size() == b.size());
  std::string why;
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(same_instruction(a[i].inst, b[i].inst, &why));

  // A truncated .xz is an InputError too.
  std::string cut = dir + "/cut.traceg.xz";
  {
    std::ifstream in(dir + "/kernel-1.traceg.xz", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  std::string e = input_error_of([&] {
    accelsim::TracegKernelSource s(cut);
    read_all(s);
  });
  CHECK(contains(e, "cut.traceg.xz"));
  fs::remove_all(dir);
}

TEST_CASE("a finished .xz decoder's dictionary serves the next file's decoder", "[accelsim][xz]") {
  // Each launch of a trace is a file of its own: gaussian's 126 decoders each mapped and unmapped
  // a dictionary. One that wrote little is kept for the next decoder.
  std::string dir = temp_dir("xz-kept");
  write_file(dir + "/kernel-1.traceg", one_warp_trace(5, {"0000 ffffffff 0 EXIT 0 0 0 "}));
  REQUIRE(std::system(("xz -k " + dir + "/kernel-1.traceg").c_str()) == 0);
  const std::uint64_t before = accelsim::xz_dictionaries_mapped();
  std::string first;
  for (int file = 0; file < 5; ++file) {
    auto source = accelsim::open_byte_source(dir + "/kernel-1.traceg.xz");
    std::string text(4096, '\0');
    text.resize(source->read(text.data(), text.size()));
    if (file == 0) first = text;
    CHECK(text == first);  // a kept dictionary decodes as a fresh one does
    CHECK(source->read(text.data(), text.size()) == 0);
  }
  CHECK(first.find("EXIT") != std::string::npos);
  CHECK(accelsim::xz_dictionaries_mapped() - before <= 1);  // one at most, if none was kept yet
  fs::remove_all(dir);
}

TEST_CASE("an .xz file: streams one after another, padding, and junk after the end", "[accelsim][xz]") {
  std::string dir = temp_dir("xz-streams");
  auto xz_of = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    REQUIRE(std::system(("xz -f " + dir + "/" + name).c_str()) == 0);
    std::ifstream in(dir + "/" + name + ".xz", std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  auto read_xz = [&](const std::string& bytes) {
    const std::string path = dir + "/t.xz";
    std::ofstream(path, std::ios::binary) << bytes;
    auto source = accelsim::open_byte_source(path);
    std::string out;
    char buffer[7];  // small pieces: stream ends fall inside a read
    for (std::size_t n; (n = source->read(buffer, sizeof buffer)) > 0;) out.append(buffer, n);
    return out;
  };
  const std::string hello = xz_of("a", "hello\n"), world = xz_of("b", std::string(100000, 'w') + "\n");
  CHECK(read_xz(hello) == "hello\n");
  CHECK(read_xz(hello + world) == "hello\n" + std::string(100000, 'w') + "\n");  // `cat a.xz b.xz`
  CHECK(read_xz(hello + std::string(8, '\0') + world) == "hello\n" + std::string(100000, 'w') + "\n");
  CHECK(read_xz(hello + std::string(4, '\0')) == "hello\n");  // stream padding
  // Junk appended was reported as "truncated"; it now says what and where.
  std::string e = input_error_of([&] { read_xz(hello + "junk"); });
  CHECK(contains(e, "t.xz: unexpected bytes after the end of the .xz stream, at byte " + std::to_string(hello.size())));
  e = input_error_of([&] { read_xz(hello + std::string(3, '\0') + "\xFD" + "7zX"); });  // a cut-off magic
  CHECK(contains(e, "at byte " + std::to_string(hello.size() + 3)));
  CHECK(contains(input_error_of([&] { read_xz(hello.substr(0, hello.size() - 5)); }), "truncated .xz file"));
  fs::remove_all(dir);
}

namespace {
// The text of `text`, recording how much each read on `opener`'s thread asked for.
class RecordingSource : public accelsim::ByteSource {
 public:
  RecordingSource(const std::string& text, std::thread::id opener, std::size_t& asked)
      : inner_(accelsim::memory_byte_source(text)), opener_(opener), asked_(asked) {}
  std::size_t read(char* buffer, std::size_t capacity) override {
    if (std::this_thread::get_id() == opener_) asked_ += capacity;
    return inner_->read(buffer, capacity);
  }

 private:
  std::unique_ptr<accelsim::ByteSource> inner_;
  std::thread::id opener_;
  std::size_t& asked_;
};
}  // namespace

TEST_CASE("opening a .traceg reads little more than its header on the opening thread", "[accelsim]") {
  // The simulation's thread opens each launch (its header); a .traceg.xz decompresses what a read
  // asks for, so asking for a whole chunk there decompressed a quarter megabyte per launch.
  std::vector<std::string> lines(20000, "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0 0 ");
  lines.push_back("0010 ffffffff 0 EXIT 0 0 0 ");
  const std::string text = one_warp_trace(5, lines);
  REQUIRE(text.size() > 512 * 1024);
  std::size_t asked = 0;
  const auto opener = std::this_thread::get_id();
  accelsim::TracegKernelSource source("big.traceg", [&] { return std::make_unique<RecordingSource>(text, opener, asked); });
  CHECK(asked > 0);
  CHECK(asked <= 16 * 1024);
  CHECK(read_all(source).size() == 20001);
}
