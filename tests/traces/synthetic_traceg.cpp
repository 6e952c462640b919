#include "tests/traces/synthetic_traceg.hpp"

#include <lzma.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "tests/traces/accelsim_test_helpers.hpp"

namespace warpsim::test {
namespace {

constexpr int kWarpsPerBlock = 8;
constexpr int kIterations = 32;
constexpr int kInstructionsPerWarp = 3 + 7 * kIterations + 1;

// Streams text through an xz encoder into a file.
class XzWriter {
 public:
  explicit XzWriter(const std::string& path) : file_(std::fopen(path.c_str(), "wb")) {
    if (!file_) throw std::runtime_error("cannot create " + path);
    lzma_options_lzma options;
    lzma_lzma_preset(&options, 1);
    options.dict_size = 8u << 20;
    lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    if (lzma_stream_encoder(&stream_, filters, LZMA_CHECK_CRC64) != LZMA_OK) throw std::runtime_error("xz encoder");
  }
  ~XzWriter() {
    lzma_end(&stream_);
    if (file_) std::fclose(file_);
  }
  void write(const std::string& text) { code(text.data(), text.size(), LZMA_RUN); }
  std::uint64_t finish() {
    code(nullptr, 0, LZMA_FINISH);
    std::fclose(file_);
    file_ = nullptr;
    return written_;
  }

 private:
  void code(const char* data, std::size_t size, lzma_action action) {
    stream_.next_in = reinterpret_cast<const std::uint8_t*>(data);
    stream_.avail_in = size;
    for (;;) {
      std::uint8_t out[1 << 16];
      stream_.next_out = out;
      stream_.avail_out = sizeof out;
      const lzma_ret ret = lzma_code(&stream_, action);
      if (ret != LZMA_OK && ret != LZMA_STREAM_END) throw std::runtime_error("xz encoding failed");
      const std::size_t n = sizeof out - stream_.avail_out;
      if (std::fwrite(out, 1, n, file_) != n) throw std::runtime_error("write failed");
      written_ += n;
      if (ret == LZMA_STREAM_END || (action == LZMA_RUN && stream_.avail_in == 0)) return;
    }
  }
  std::FILE* file_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  std::uint64_t written_ = 0;
};

// One warp: a prologue, the loop (two loads, an FFMA, a store, the index and the branch), EXIT.
void append_warp(std::string& text, std::uint64_t global_warp) {
  char line[160];
  text += "0000 ffffffff 1 R1 LDC 0 0 0\n0010 ffffffff 1 R4 S2R 0 0 0\n0020 ffffffff 1 R7 IMAD 2 R4 R1 0 0\n";
  for (int i = 0; i < kIterations; ++i) {
    const std::uint64_t offset = (global_warp * kIterations + static_cast<std::uint64_t>(i)) * 128;
    std::snprintf(line, sizeof line, "0080 ffffffff 1 R2 LDG.E 1 R4 4 1 0x%012" PRIx64 " 4 0\n", 0x7f0200000000 + offset);
    text += line;
    std::snprintf(line, sizeof line, "0090 ffffffff 1 R3 LDG.E 1 R4 4 1 0x%012" PRIx64 " 4 0\n", 0x7f0300000000 + offset);
    text += line;
    text += "00a0 ffffffff 1 R5 FFMA 3 R2 R3 R5 0 0\n";
    std::snprintf(line, sizeof line, "00b0 ffffffff 0 STG.E 2 R6 R5 4 1 0x%012" PRIx64 " 4 0\n", 0x7f0400000000 + offset);
    text += line;
    text += "00c0 ffffffff 1 R4 IADD3 2 R4 R255 0 128\n00d0 ffffffff 0 ISETP.GE.AND 2 R4 R7 0 0\n00e0 ffffffff 0 BRA 0 0 -112\n";
  }
  text += "00f0 ffffffff 0 EXIT 0 0 0\n";
}

}  // namespace

SyntheticTrace write_synthetic_traceg(const std::string& dir, std::uint64_t text_bytes, int kernels) {
  SyntheticTrace out;
  std::string text;
  append_warp(text, 0);
  const std::uint64_t block_bytes = text.size() * kWarpsPerBlock;  // every warp's text has the same length
  const std::uint64_t blocks = std::max<std::uint64_t>(1, text_bytes / block_bytes / static_cast<std::uint64_t>(kernels));
  std::ofstream list(dir + "/kernelslist.g");
  std::uint64_t global_warp = 0;
  for (int k = 1; k <= kernels; ++k) {
    char name[64], grid[64];
    std::snprintf(name, sizeof name, "kernel-%d.traceg.xz", k);
    std::snprintf(grid, sizeof grid, "(%" PRIu64 ",1,1)", blocks);
    list << name << "\n";
    XzWriter xz(dir + "/" + name);
    text = traceg_header(5, grid, "(256,1,1)", 90);
    for (std::uint64_t b = 0; b < blocks; ++b) {
      char line[96];
      std::snprintf(line, sizeof line, "#BEGIN_TB\nthread block = %" PRIu64 ",0,0\n", b);
      text += line;
      for (int w = 0; w < kWarpsPerBlock; ++w) {
        std::snprintf(line, sizeof line, "warp = %d\ninsts = %d\n", w, kInstructionsPerWarp);
        text += line;
        append_warp(text, global_warp++);
      }
      text += "#END_TB\n";
      out.text_bytes += text.size();
      xz.write(text);
      text.clear();
    }
    out.compressed_bytes += xz.finish();
    out.instructions += blocks * kWarpsPerBlock * kInstructionsPerWarp;
  }
  out.kernelslist = dir + "/kernelslist.g";
  return out;
}

}  // namespace warpsim::test
