#include "traces/accelsim/byte_source.hpp"

#include <lzma.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "sim/errors.hpp"
#include "sim/zero_pages.hpp"

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

std::atomic<std::uint64_t> dictionaries_mapped{0};  // xz_dictionaries_mapped()

// Dictionaries that a finished decoder wrote little of, kept for the next decoder (of any
// thread): each launch's decoder maps a 64 MiB dictionary (xz -9), advises it and unmaps it at
// its end, and the pages it writes come fresh from the kernel, a fault each; gaussian's 126
// launches of ~9 KB of text each did so. liblzma writes a dictionary before it reads it, so a
// kept one is handed out as it was left. Kept only where the decoder wrote at most
// kKeepWritten, so that no more than that much of each is resident while no decoder uses it,
// and at most kKept of them.
class KeptDictionaries {
 public:
  static constexpr std::uint64_t kKeepWritten = std::uint64_t{8} << 20;

  static KeptDictionaries& instance() {
    static KeptDictionaries kept;
    return kept;
  }
  ~KeptDictionaries() {
    for (const auto& [p, bytes] : kept_) sim::free_zeroed(p, bytes, true);
  }
  // A kept mapping of exactly `bytes`, or null.
  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->second == bytes) {
        void* p = it->first;
        kept_.erase(it);
        return p;
      }
    return nullptr;
  }
  // Keeps `p` (`bytes` from sim::allocate_zeroed, huge) if there is room, else gives it back.
  void keep(void* p, std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (kept_.size() < kKept) {
        kept_.emplace_back(p, bytes);
        return;
      }
    }
    sim::free_zeroed(p, bytes, true);
  }

 private:
  static constexpr std::size_t kKept = 2;
  std::mutex mutex_;
  std::vector<std::pair<void*, std::size_t>> kept_;
};

// Where liblzma's decoder gets its memory: its dictionary (up to 64 MiB, written through as the
// text comes, as much of it as the file holds) in huge pages, which costs a few page faults
// instead of one per 4 KiB (tens of microseconds each on a virtual machine, 9,000 for fdtd2d's
// 15 kernels), or a kept one; small allocations from the heap.
class XzMemory {
 public:
  XzMemory() : allocator_{&XzMemory::allocate, &XzMemory::release, this} {}
  ~XzMemory() {
    for (const auto& [p, bytes] : mapped_) sim::free_zeroed(p, bytes, true);
  }
  XzMemory(const XzMemory&) = delete;
  XzMemory& operator=(const XzMemory&) = delete;
  const lzma_allocator* allocator() const { return &allocator_; }
  // Before the decoder ends: how many bytes it wrote (of its dictionary too).
  void decoder_wrote(std::uint64_t bytes) { written_ = bytes; }

 private:
  static constexpr std::size_t kMapped = std::size_t{4} << 20;
  static void* allocate(void* self, std::size_t count, std::size_t size) {
    auto& m = *static_cast<XzMemory*>(self);
    const std::size_t bytes = count * size;
    if (bytes < kMapped) return std::malloc(bytes);
    try {
      void* p = KeptDictionaries::instance().take(bytes);
      if (p == nullptr) {
        p = sim::allocate_zeroed(bytes, 4096, true);
        dictionaries_mapped.fetch_add(1, std::memory_order_relaxed);
      }
      m.mapped_.emplace_back(p, bytes);
      return p;
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
  }
  static void release(void* self, void* p) {
    auto& m = *static_cast<XzMemory*>(self);
    for (auto it = m.mapped_.begin(); it != m.mapped_.end(); ++it)
      if (it->first == p) {
        if (m.written_ <= KeptDictionaries::kKeepWritten)
          KeptDictionaries::instance().keep(p, it->second);
        else
          sim::free_zeroed(p, it->second, true);
        m.mapped_.erase(it);
        return;
      }
    std::free(p);
  }
  lzma_allocator allocator_;
  std::vector<std::pair<void*, std::size_t>> mapped_;
  std::uint64_t written_ = ~std::uint64_t{0};  // unknown: not kept
};

// liblzma's streaming decoder: compressed input is pulled in 64 KiB pieces as the caller asks
// for text, so memory stays constant whatever the file size. Streams are decoded one at a time
// rather than with LZMA_CONCATENATED, so that what follows a stream can be told apart: stream
// padding (zero bytes), another stream (`cat a.xz b.xz`), or junk appended to the file, which
// the concatenated decoder reported as a truncated stream.
class XzFileSource : public ByteSource {
 public:
  explicit XzFileSource(const std::string& path) : path_(path), file_(path) { start_stream(); }
  ~XzFileSource() override {
    memory_.decoder_wrote(stream_.total_out);
    lzma_end(&stream_);
  }

  std::size_t read(char* buffer, std::size_t capacity) override {
    if (finished_) return 0;
    stream_.next_out = reinterpret_cast<std::uint8_t*>(buffer);
    stream_.avail_out = capacity;
    while (stream_.avail_out == capacity) {
      if (stream_.avail_in == 0) refill(0);
      lzma_ret ret = lzma_code(&stream_, input_ended_ ? LZMA_FINISH : LZMA_RUN);
      if (ret == LZMA_STREAM_END) {
        if (another_stream_follows()) {
          start_stream();
          continue;
        }
        finished_ = true;
        break;
      }
      if (ret != LZMA_OK) throw InputError(path_, describe(ret));
    }
    return capacity - stream_.avail_out;
  }

 private:
  // A fresh decoder that goes on from where the buffers stand.
  void start_stream() {
    memory_.decoder_wrote(stream_.total_out);
    lzma_end(&stream_);
    lzma_stream fresh = LZMA_STREAM_INIT;
    fresh.allocator = memory_.allocator();
    fresh.next_in = stream_.next_in;
    fresh.avail_in = stream_.avail_in;
    fresh.next_out = stream_.next_out;
    fresh.avail_out = stream_.avail_out;
    stream_ = fresh;
    if (lzma_stream_decoder(&stream_, UINT64_MAX, 0) != LZMA_OK) throw InputError(path_, "cannot start the xz decoder");
  }

  const std::uint8_t* input_begin() const { return reinterpret_cast<const std::uint8_t*>(input_.get()); }
  // Where the decoder stands in input_ (0 before the first read).
  std::uint64_t position() const {
    return stream_.next_in ? static_cast<std::uint64_t>(stream_.next_in - input_begin()) : 0;
  }

  // Keeps the `keep` unread bytes (moved to the front) and reads more after them.
  void refill(std::size_t keep) {
    if (input_ended_) return;
    consumed_ += position();
    if (keep > 0) std::memmove(input_.get(), stream_.next_in, keep);
    const std::size_t n = file_.read(input_.get() + keep, kInputBytes - keep);
    stream_.next_in = input_begin();
    stream_.avail_in = keep + n;
    if (n == 0) input_ended_ = true;
  }

  // After a stream's end: skips stream padding, then true if another stream begins, false at the
  // end of the file; anything else is junk.
  bool another_stream_follows() {
    static constexpr std::uint8_t kMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    for (;;) {
      while (stream_.avail_in > 0 && *stream_.next_in == 0) {
        ++stream_.next_in;
        --stream_.avail_in;
      }
      if (stream_.avail_in > 0 || input_ended_) break;
      refill(0);
    }
    if (stream_.avail_in == 0) return false;
    if (stream_.avail_in < sizeof kMagic) refill(stream_.avail_in);
    const std::uint64_t offset = consumed_ + position();
    if (stream_.avail_in < sizeof kMagic || std::memcmp(stream_.next_in, kMagic, sizeof kMagic) != 0)
      throw InputError(path_, "unexpected bytes after the end of the .xz stream, at byte " + std::to_string(offset) +
                                  " (something appended to the file?)");
    return true;
  }

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
  // Not zeroed: a launch is opened on the simulation's thread, and only what the file fills is read.
  static constexpr std::size_t kInputBytes = 64 * 1024;
  std::unique_ptr<char[]> input_ = std::make_unique_for_overwrite<char[]>(kInputBytes);
  XzMemory memory_;  // before stream_, which releases its memory through it
  lzma_stream stream_ = LZMA_STREAM_INIT;
  std::uint64_t consumed_ = 0;  // file bytes before input_'s first byte
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

std::uint64_t xz_dictionaries_mapped() { return dictionaries_mapped.load(std::memory_order_relaxed); }

}  // namespace warpsim::traces::accelsim
