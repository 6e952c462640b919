// The native .wtrace format: exact round trips of the shared traces and of a library-style
// kernel, and corruption (flipped bytes, truncation) reported as InputError with file and chunk.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <lzma.h>
#include <sys/resource.h>
#include <zlib.h>

#include "analysis/validation/reference_data.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"
#include "tests/traces/accelsim_test_helpers.hpp"
#include "traces/traced_kernel_source.hpp"
#include "traces/open_workload.hpp"
#include "traces/wtrace/block_record_builder.hpp"
#include "traces/wtrace/wtrace_format.hpp"
#include "traces/wtrace/wtrace_writer.hpp"

using namespace warpsim::traces;
using namespace warpsim::test;
using warpsim::sim::InputError;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}
void spit(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Opens the workload and reads every instruction of every launch; returns the InputError
// message, or "" if everything read.
std::string read_everything(const std::string& path) {
  try {
    Workload w = open_workload(path);
    for (const auto& step : w.steps)
      if (step.kind == WorkloadStep::Kind::Launch) {
        auto k = step.launch.open();
        read_all(*k);
      }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

template <typename F>
std::string input_error_message_or_empty(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A kernel the way the synthetic library makes one: every field set, no trace behind it.
class LibraryLikeKernel : public KernelSource {
 public:
  LibraryLikeKernel() {
    info_.name = "readOffset";
    info_.grid = {3, 2, 1};
    info_.block = {48, 1, 1};
    info_.registers_per_thread = 40;
    info_.shared_bytes_per_block = 1024;
    info_.stream_id = 7;
    info_.window = {0x7000000000, 1 << 20, 0.625, AccessProperty::Persisting, AccessProperty::Normal};
    info_.set_aside_bytes = 3 << 20;
  }
  const KernelInfo& info() const override { return info_; }
  std::vector<std::unique_ptr<WarpStream>> open_block(std::uint64_t id) override {
    std::vector<std::unique_ptr<WarpStream>> warps;
    if (id == 4) return warps;  // a block with no warps
    for (int w = 0; w < 2; ++w) warps.push_back(std::make_unique<Stream>(id, w));
    return warps;
  }
  std::vector<std::string> warnings() const override { return {"a warning"}; }

  static Instruction make(std::uint64_t block, int warp, int i) {
    Instruction inst;
    inst.pc = static_cast<std::uint32_t>(i * 16);
    inst.active_mask = warp == 1 ? 0x0000ffffu : kFullMask;
    if (i % 3 == 0) {
      inst.unit = Unit::LdSt;
      inst.mem_op = i % 2 ? MemOp::Store : MemOp::Load;
      inst.space = MemSpace::Global;
      inst.cache_op = CacheOp::Global;
      inst.width = 4;
      for (int lane = 0; lane < 32; ++lane)
        inst.addr[lane] = (inst.active_mask >> lane & 1) ? 0x7000000000 + block * 4096 + lane * (i % 2 ? 4 : 132) : 0;
    } else {
      inst.unit = i % 3 == 1 ? Unit::Fp32 : Unit::Fp64;
      inst.dst_count = 1;
      inst.dst[0] = static_cast<Reg>(i % 255);
      inst.src_count = 2;
      inst.src[0] = predicate_reg(i % 7);
      inst.src[1] = static_cast<Reg>(warp);
    }
    if (i == 9) inst.control = Control::Barrier;
    if (i == 10) inst.control = Control::Exit;
    return inst;
  }

 private:
  struct Stream : WarpStream {
    Stream(std::uint64_t b, int w) : block(b), warp(w) {}
    bool next(Instruction& out) override {
      if (i > 10) return false;
      out = make(block, warp, i++);
      return true;
    }
    std::uint64_t block;
    int warp;
    int i = 0;
  };
  KernelInfo info_;
};

}  // namespace

TEST_CASE("every shared trace converts to .wtrace and reads back identically", "[wtrace][shared]") {
  std::string dir = temp_dir("wtrace-roundtrip");
  for (const auto& row : readme_rows()) {
    INFO(row.folder);
    std::string src = shared_path("traces/" + row.folder + "/kernelslist.g");
    std::string out = dir + "/" + row.folder + ".wtrace";
    Workload original = open_workload(src);
    auto written = wtrace::write_wtrace(original, out);
    CHECK(written.instructions == row.instruction_lines);
    CHECK_FALSE(fs::exists(out + ".partial"));
    Workload copy = open_workload(out);
    CHECK(copy.name == original.name);
    REQUIRE(copy.steps.size() == original.steps.size());
    for (std::size_t s = 0; s < copy.steps.size(); ++s) {
      REQUIRE(copy.steps[s].kind == original.steps[s].kind);
      if (copy.steps[s].kind == WorkloadStep::Kind::Memcpy) {
        CHECK(copy.steps[s].memcpy.device_address == original.steps[s].memcpy.device_address);
        CHECK(copy.steps[s].memcpy.bytes == original.steps[s].memcpy.bytes);
        continue;
      }
      CHECK(copy.steps[s].launch.label == original.steps[s].launch.label);
      auto a = original.steps[s].launch.open();
      auto b = copy.steps[s].launch.open();
      CHECK(b->info().name == a->info().name);
      CHECK(b->info().grid.count() == a->info().grid.count());
      CHECK(b->info().block.x == a->info().block.x);
      CHECK(b->info().registers_per_thread == a->info().registers_per_thread);
      auto* traced = dynamic_cast<TracedKernelSource*>(b.get());
      REQUIRE(traced);
      CHECK(traced->origin().format == "accelsim");
      CHECK(traced->origin().binary_version == dynamic_cast<TracedKernelSource&>(*a).origin().binary_version);
      auto ia = read_all(*a), ib = read_all(*b);
      REQUIRE(ia.size() == ib.size());
      std::string why;
      for (std::size_t i = 0; i < ia.size(); ++i) {
        INFO("instruction " << i << " field " << why);
        REQUIRE(ia[i].block == ib[i].block);
        REQUIRE(ia[i].warp == ib[i].warp);
        REQUIRE(same_instruction(ia[i].inst, ib[i].inst, &why));
      }
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("a library-style kernel round-trips through .wtrace, KernelInfo included", "[wtrace]") {
  std::string dir = temp_dir("wtrace-library");
  LibraryLikeKernel kernel;
  auto s = wtrace::write_wtrace(kernel, "readOffset", dir + "/k.wtrace");
  CHECK(s.blocks == 5);
  CHECK(s.instructions == 5 * 2 * 11);
  Workload w = open_workload(dir + "/k.wtrace");
  REQUIRE(w.steps.size() == 1);
  auto k = w.steps[0].launch.open();
  const KernelInfo& a = kernel.info();
  const KernelInfo& b = k->info();
  CHECK(b.name == a.name);
  CHECK((b.grid.x == 3 && b.grid.y == 2 && b.grid.z == 1));
  CHECK(b.registers_per_thread == 40);
  CHECK(b.shared_bytes_per_block == 1024);
  CHECK(b.stream_id == 7);
  CHECK(b.window.base == a.window.base);
  CHECK(b.window.bytes == a.window.bytes);
  CHECK(b.window.hit_ratio == a.window.hit_ratio);
  CHECK(b.window.hit_prop == a.window.hit_prop);
  CHECK(b.window.miss_prop == a.window.miss_prop);
  CHECK(b.set_aside_bytes == a.set_aside_bytes);
  CHECK(k->warnings() == std::vector<std::string>{"a warning"});
  CHECK(dynamic_cast<TracedKernelSource&>(*k).origin().format == "library");
  CHECK(k->open_block(4).empty());
  auto all = read_all(*k);
  REQUIRE(all.size() == 110);
  for (const auto& d : all) {
    Instruction expect = LibraryLikeKernel::make(d.block, static_cast<int>(d.warp), static_cast<int>(d.inst.pc / 16));
    std::string why;
    INFO(why);
    CHECK(same_instruction(expect, d.inst, &why));
  }
  fs::remove_all(dir);
}

TEST_CASE("a uniform constant load is written with every active lane's address", "[wtrace]") {
  // The kernel library writes a constant load's address once (uniform_address); the file has
  // no such flag, so the encoder gives each active lane that address, and decoding into a
  // buffer entry that held such a load clears the flag.
  Instruction ldc;
  ldc.unit = Unit::LdSt;
  ldc.space = MemSpace::Constant;
  ldc.mem_op = MemOp::Load;
  ldc.width = 4;
  ldc.active_mask = 0x0000fff0u;
  for (int lane = 0; lane < kWarpSize; ++lane) ldc.addr[static_cast<std::size_t>(lane)] = 0x1000 + 8u * lane;  // stale
  ldc.addr[4] = 0x28;
  ldc.uniform_address = true;
  wtrace::BlockRecordBuilder builder;
  builder.begin(0, 1);
  builder.add(0, ldc);
  KernelInfo kernel;
  auto record = std::make_shared<wtrace::BlockRecord>(wtrace::parse_block_record(builder.finish(), kernel, "test"));
  auto warps = wtrace::open_record_warps(record);
  REQUIRE(warps.size() == 1);
  Instruction back;
  back.uniform_address = true;
  REQUIRE(warps[0]->next(back));
  CHECK_FALSE(back.uniform_address);
  for (int lane = 4; lane < 16; ++lane) CHECK(back.addr[static_cast<std::size_t>(lane)] == 0x28);
  CHECK(same_instruction(ldc, back));
  CHECK_FALSE(warps[0]->next(back));
}

TEST_CASE("a corrupted .wtrace is an InputError naming the file and the chunk", "[wtrace]") {
  std::string dir = temp_dir("wtrace-corrupt");
  std::string good = dir + "/vectoradd.wtrace";
  wtrace::write_wtrace(open_workload(shared_path("traces/vectoradd-sm80-v5/kernelslist.g")), good);
  std::string bytes = slurp(good);
  REQUIRE(read_everything(good).empty());

  std::string bad = dir + "/bad.wtrace";
  // A byte flipped in the middle lands in a thread-block chunk: its checksum fails.
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  spit(bad, flipped);
  std::string e = read_everything(bad);
  CHECK(contains(e, "bad.wtrace: chunk "));
  CHECK(contains(e, "(block data) at byte"));
  CHECK(contains(e, "checksum mismatch"));

  // Truncated anywhere: found when the file is opened, before any simulation.
  for (std::size_t cut : {bytes.size() - 1, bytes.size() / 3, std::size_t(20), std::size_t(40)}) {
    INFO(cut);
    spit(bad, bytes.substr(0, cut));
    std::string t = input_error_message_or_empty([&] { open_workload(bad); });
    CHECK(contains(t, "bad.wtrace"));
    CHECK(contains(t, "chunk"));
    CHECK(contains(t, "truncated"));
  }
  spit(bad, bytes.substr(0, 10));
  CHECK(contains(read_everything(bad), "too short"));
  spit(bad, "hello world, not a trace");
  CHECK(contains(read_everything(bad), "not a .wtrace file"));
  fs::remove_all(dir);
}

TEST_CASE("rejected .wtrace files do not leak file descriptors", "[wtrace]") {
  // Found by fuzz_wtrace: a constructor that threw after fopen leaked the FILE.
  std::string dir = temp_dir("wtrace-fd");
  std::string bad = dir + "/bad.wtrace";
  spit(bad, std::string("\x89WTRACE\n\x03\0\0\0\0\0\0\0", 16));  // format version 3
  // A low descriptor limit for the loop, so that a leak shows whatever the machine's limit.
  rlimit saved{};
  getrlimit(RLIMIT_NOFILE, &saved);
  rlimit low = saved;
  low.rlim_cur = std::min<rlim_t>(saved.rlim_cur, 256);
  setrlimit(RLIMIT_NOFILE, &low);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) rejected += contains(read_everything(bad), "format version 3");
  setrlimit(RLIMIT_NOFILE, &saved);
  CHECK(rejected == 1000);
  fs::remove_all(dir);
}

TEST_CASE("every single-byte corruption of a small .wtrace is detected", "[wtrace]") {
  std::string dir = temp_dir("wtrace-flip");
  std::string good = dir + "/ffma.wtrace";
  wtrace::write_wtrace(open_workload(shared_path("traces/ffma-sm90-v5/kernelslist.g")), good);
  std::string bytes = slurp(good);
  std::string bad = dir + "/bad.wtrace";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    INFO(i);
    std::string flipped = bytes;
    flipped[i] ^= 0x01;
    spit(bad, flipped);
    CHECK(contains(read_everything(bad), "bad.wtrace"));
  }
  fs::remove_all(dir);
}

TEST_CASE("trace convert writes a .wtrace that trace info reads", "[wtrace][cli]") {
  std::string dir = temp_dir("wtrace-cli");
  auto r = run_warpsim("trace convert " + shared_path("traces/btree-rodinia-sm90-v5") + " " + dir + "/btree.wtrace");
  REQUIRE(r.exit_code == 0);
  auto info = run_warpsim("trace info " + dir + "/btree.wtrace");
  REQUIRE(info.exit_code == 0);
  CHECK(contains(info.out, "total: 43664 instructions"));
  CHECK(contains(info.out, "8 x 128"));
  CHECK(contains(info.out, "tracer version 5, binary version 90"));
  CHECK(run_warpsim("trace convert " + shared_path("traces/btree-rodinia-sm90-v5") + " " + dir + "/btree.bin").exit_code == 2);
  fs::remove_all(dir);
}

TEST_CASE("a version 1 .wtrace, written before version 2, reads the same as the trace it came from", "[wtrace]") {
  // tests/traces/wtrace_v1/ holds vectoradd converted by warpsim at b4cdda7, the last version 1 writer.
  const std::string old = std::string(WARPSIM_SOURCE_DIR) + "/tests/traces/wtrace_v1/vectoradd-sm80-v5.wtrace";
  REQUIRE(slurp(old).substr(8, 4) == std::string("\x01\0\0\0", 4));
  Workload w = open_workload(old);
  Workload text = open_workload(shared_path("traces/vectoradd-sm80-v5/kernelslist.g"));
  REQUIRE(w.steps.size() == text.steps.size());
  auto a = read_all(*text.steps.back().launch.open());
  auto b = read_all(*w.steps.back().launch.open());
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::string why;
    INFO("instruction " << i << " field " << why);
    REQUIRE(a[i].block == b[i].block);
    REQUIRE(same_instruction(a[i].inst, b[i].inst, &why));
  }
}

TEST_CASE("block data that passes its checksum but does not decompress is an InputError naming the chunk", "[wtrace]") {
  std::string dir = temp_dir("wtrace-zstd");
  std::string good = dir + "/v.wtrace";
  wtrace::write_wtrace(open_workload(shared_path("traces/vectoradd-sm80-v5/kernelslist.g")), good);
  std::string bytes = slurp(good);
  // Walk the chunks to the first block data chunk; flip a byte in its payload and seal the
  // chunk again with a matching CRC, as a writer with a bug (or a crafted file) would.
  std::size_t offset = wtrace::kFileHeaderBytes;
  auto u32_at = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t(static_cast<std::uint8_t>(bytes[at + i])) << (8 * i);
    return v;
  };
  while (bytes[offset] != 'D') offset += wtrace::kChunkHeaderBytes + u32_at(offset + 4);
  const std::uint32_t stored = u32_at(offset + 4);
  std::string bad = bytes;
  bad[offset + wtrace::kChunkHeaderBytes + stored / 2] ^= 0x55;
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bad.data() + offset), 12);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bad.data() + offset + wtrace::kChunkHeaderBytes), stored);
  for (int i = 0; i < 4; ++i) bad[offset + 12 + i] = static_cast<char>(crc >> (8 * i));
  spit(dir + "/bad.wtrace", bad);
  const std::string e = read_everything(dir + "/bad.wtrace");
  CHECK(contains(e, "bad.wtrace: "));
  CHECK((contains(e, "(block data) at byte " + std::to_string(offset)) || contains(e, "thread block record")));
  fs::remove_all(dir);
}

TEST_CASE("the corpus as .wtrace is no larger than as .traceg.xz", "[wtrace][slow]") {
  // Issue 28's goal, over the six programs of h100-apps (stored as the tracer's text, xz -9) and
  // the four shared traces (plain text here, compressed as the apps were: xz -9).
  std::string dir = temp_dir("wtrace-sizes");
  std::uint64_t xz_bytes = 0, wtrace_bytes = 0;
  std::vector<std::string> lists;
  for (const auto& e : fs::directory_iterator(warpsim::analysis::validation_data_dir() / "h100-apps")) {
    if (!e.is_directory()) continue;
    lists.push_back((e.path() / "kernelslist.g").string());
    for (const auto& f : fs::directory_iterator(e.path()))
      if (f.path().extension() == ".xz") xz_bytes += fs::file_size(f.path());
  }
  for (const auto& row : readme_rows()) {
    const fs::path folder = shared_path("traces/" + row.folder);
    lists.push_back((folder / "kernelslist.g").string());
    for (const auto& f : fs::directory_iterator(folder))
      if (f.path().extension() == ".traceg") {
        const std::string text = slurp(f.path().string());
        std::vector<std::uint8_t> out(lzma_stream_buffer_bound(text.size()));
        std::size_t written = 0;
        REQUIRE(lzma_easy_buffer_encode(9, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                        text.size(), out.data(), &written, out.size()) == LZMA_OK);
        xz_bytes += written;
      }
  }
  for (std::size_t k = 0; k < lists.size(); ++k) {
    INFO(lists[k]);
    wtrace_bytes += wtrace::write_wtrace(open_workload(lists[k]), dir + "/" + std::to_string(k) + ".wtrace").bytes;
  }
  WARN(".wtrace " << wtrace_bytes << " bytes, .traceg.xz " << xz_bytes << " bytes");
  CHECK(wtrace_bytes <= xz_bytes);
  fs::remove_all(dir);
}
