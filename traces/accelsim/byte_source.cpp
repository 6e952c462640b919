#include "traces/accelsim/byte_source.hpp"

#include <lzma.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "sim/errors.hpp"

namespace warpsim::traces::accelsim {
namespace {

using sim::InputError;

class FileHandle {
 public:
  explicit FileHandle(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  }
  ~FileHandle() { std::fclose(file_); }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;

  std::size_t read(char* buffer, std::size_t capacity) {
    std::size_t n = std::fread(buffer, 1, capacity, file_);
    if (n < capacity && std::ferror(file_)) throw InputError(path_, std::string("read error: ") + std::strerror(errno));
    return n;
  }

 private:
  std::string path_;
  std::FILE* file_;
};

class PlainFileSource : public ByteSource {
 public:
  explicit PlainFileSource(const std::string& path) : file_(path) {}
  std::size_t read(char* buffer, std::size_t capacity) override { return file_.read(buffer, capacity); }

 private:
  FileHandle file_;
};

// liblzma's streaming decoder: compressed input is pulled in 64 KiB pieces as the caller asks
// for text, so memory stays constant whatever the file size.
class XzFileSource : public ByteSource {
 public:
  explicit XzFileSource(const std::string& path) : path_(path), file_(path), input_(64 * 1024) {
    if (lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw InputError(path, "cannot start the xz decoder");
  }
  ~XzFileSource() override { lzma_end(&stream_); }

  std::size_t read(char* buffer, std::size_t capacity) override {
    if (finished_) return 0;
    stream_.next_out = reinterpret_cast<std::uint8_t*>(buffer);
    stream_.avail_out = capacity;
    while (stream_.avail_out == capacity) {
      lzma_action action = LZMA_RUN;
      if (stream_.avail_in == 0 && !input_ended_) {
        std::size_t n = file_.read(input_.data(), input_.size());
        stream_.next_in = reinterpret_cast<const std::uint8_t*>(input_.data());
        stream_.avail_in = n;
        if (n == 0) input_ended_ = true;
      }
      if (input_ended_) action = LZMA_FINISH;
      lzma_ret ret = lzma_code(&stream_, action);
      if (ret == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (ret != LZMA_OK) throw InputError(path_, describe(ret));
    }
    return capacity - stream_.avail_out;
  }

 private:
  static std::string describe(lzma_ret ret) {
    switch (ret) {
      case LZMA_BUF_ERROR: return "truncated .xz file (the compressed stream ends early)";
      case LZMA_FORMAT_ERROR: return "not an .xz file";
      case LZMA_DATA_ERROR: return "corrupt .xz data";
      case LZMA_MEM_ERROR: return "out of memory while decompressing";
      default: return "xz decoder error " + std::to_string(static_cast<int>(ret));
    }
  }

  std::string path_;
  FileHandle file_;
  std::vector<char> input_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  bool input_ended_ = false;
  bool finished_ = false;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::size_t read(char* buffer, std::size_t capacity) override {
    std::size_t n = std::min(capacity, bytes_.size() - pos_);
    std::memcpy(buffer, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::unique_ptr<ByteSource> open_byte_source(const std::string& path) {
  if (ends_with(path, ".xz")) return std::make_unique<XzFileSource>(path);
  return std::make_unique<PlainFileSource>(path);
}

std::unique_ptr<ByteSource> memory_byte_source(std::string bytes) { return std::make_unique<MemorySource>(std::move(bytes)); }

}  // namespace warpsim::traces::accelsim
