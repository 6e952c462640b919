#pragma once
// Where a resident warp keeps its instruction stream: inside the warp's own host memory when the
// stream fits (every kernel-library stream does: its position in the SASS listing and its
// thread's logic, ~90 bytes), on the heap otherwise (trace readers with their buffers). Every
// issue calls the stream's next(); kept inline, the stream is two host cache lines the SM
// prefetches with the warp (Sm::prefetch), where a heap object was a cache miss of its own.
#include <cstddef>
#include <memory>

#include "traces/warp_stream.hpp"

namespace warpsim::models {

class alignas(64) StreamSlot {
 public:
  static constexpr std::size_t kInlineBytes = 112;  // with the pointer: two host cache lines

  StreamSlot() = default;
  StreamSlot(const StreamSlot&) = delete;
  StreamSlot& operator=(const StreamSlot&) = delete;
  ~StreamSlot() { reset(); }

  // Takes over `stream` (null: empty).
  void hold(std::unique_ptr<traces::WarpStream> stream) {
    reset();
    if (stream == nullptr) return;
    if (traces::WarpStream* moved = stream->move_into(storage_, kInlineBytes)) {
      stream_ = moved;
      inline_ = true;
    } else {
      stream_ = stream.release();
    }
  }
  void reset() {
    if (stream_ == nullptr) return;
    if (inline_)
      stream_->~WarpStream();
    else
      delete stream_;
    stream_ = nullptr;
    inline_ = false;
  }

  traces::WarpStream* operator->() const { return stream_; }
  traces::WarpStream* get() const { return stream_; }
  bool is_inline() const { return inline_; }

 private:
  traces::WarpStream* stream_ = nullptr;
  bool inline_ = false;
  alignas(16) std::byte storage_[kInlineBytes];
};

}  // namespace warpsim::models
