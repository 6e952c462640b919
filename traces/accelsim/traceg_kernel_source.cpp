#include "traces/accelsim/traceg_kernel_source.hpp"

#include <algorithm>
#include <cstring>

#include "sim/errors.hpp"
#include "traces/accelsim/field_cursor.hpp"
#include "sim/text.hpp"

namespace warpsim::traces::accelsim {

using sim::InputError;

struct BlockText {
  std::uint64_t id = 0;
  std::string text;                         // the block's instruction lines, each ending in '\n'
  std::vector<std::uint64_t> line_numbers;  // file line of each instruction line, for errors
  struct Warp {
    std::size_t first_line = 0;  // index into line_numbers
    std::size_t count = 0;
    std::size_t text_offset = 0;
    bool listed = false;
  };
  std::vector<Warp> warps;
};

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// "key = value" -> value, or LineError if the line is not that key.
std::string_view value_of(std::string_view line, std::string_view key) {
  if (!starts_with(line, key)) throw LineError("expected '" + std::string(key) + " = ...', found '" + std::string(line.substr(0, 60)) + "'");
  std::string_view rest = sim::trim(line.substr(key.size()));
  if (rest.empty() || rest.front() != '=') throw LineError("expected '" + std::string(key) + " = ...'");
  return sim::trim(rest.substr(1));
}

class TracegWarpStream : public WarpStream {
 public:
  TracegWarpStream(std::shared_ptr<const BlockText> block, const BlockText::Warp& warp,
                   std::shared_ptr<InstructionDecoder> decoder, std::shared_ptr<const std::string> path)
      : block_(std::move(block)),
        decoder_(std::move(decoder)),
        path_(std::move(path)),
        line_(warp.first_line),
        end_line_(warp.first_line + warp.count),
        offset_(warp.text_offset) {}

  bool next(Instruction& out) override {
    if (line_ == end_line_) return false;
    const std::string& text = block_->text;
    const char* start = text.data() + offset_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', text.size() - offset_));
    std::size_t len = nl - start;
    try {
      decoder_->decode(std::string_view(start, len), out);
    } catch (const LineError& e) {
      throw InputError(*path_ + ":" + std::to_string(block_->line_numbers[line_]), e.what());
    }
    offset_ += len + 1;
    ++line_;
    return true;
  }

 private:
  std::shared_ptr<const BlockText> block_;
  std::shared_ptr<InstructionDecoder> decoder_;
  std::shared_ptr<const std::string> path_;  // shared so that a warp may outlive its source
  std::size_t line_;
  std::size_t end_line_;
  std::size_t offset_;
};

class EmptyWarpStream : public WarpStream {
 public:
  bool next(Instruction&) override { return false; }
};

}  // namespace

TracegKernelSource::TracegKernelSource(std::string path)
    : path_(std::move(path)), shared_path_(std::make_shared<const std::string>(path_)) {
  open_ = [p = path_] { return open_byte_source(p); };
  restart();
}

TracegKernelSource::TracegKernelSource(std::string path, std::function<std::unique_ptr<ByteSource>()> open)
    : path_(std::move(path)), shared_path_(std::make_shared<const std::string>(path_)), open_(std::move(open)) {
  restart();
}
TracegKernelSource::~TracegKernelSource() = default;

void TracegKernelSource::restart() {
  lines_ = std::make_unique<LineReader>(path_, open_());
  header_ = read_trace_header(*lines_);
  begin_pending_ = header_.ended_at_begin_tb;
  if (!decoder_) decoder_ = std::make_shared<InstructionDecoder>(header_);
  ahead_.reset();
  last_read_id_.reset();
  last_opened_id_.reset();
  at_end_ = false;
}

std::shared_ptr<BlockText> TracegKernelSource::read_block() {
  if (at_end_) return nullptr;
  std::string_view line;
  if (!begin_pending_) {
    for (;;) {
      if (!lines_->next(line)) {
        at_end_ = true;
        return nullptr;
      }
      line = sim::trim(line);
      if (line.empty()) continue;
      if (line == "#BEGIN_TB") break;
      lines_->fail("expected '#BEGIN_TB', found '" + std::string(line.substr(0, 60)) + "'");
    }
  }
  begin_pending_ = false;
  std::uint64_t begin_line = lines_->line_number();

  // "thread block = x,y,z"
  do {
    if (!lines_->next(line)) lines_->fail("file ends right after '#BEGIN_TB' (truncated?)");
    line = sim::trim(line);
  } while (line.empty());
  std::uint64_t coord[3];
  try {
    std::string_view v = value_of(line, "thread block");
    for (int i = 0; i < 3; ++i) {
      std::size_t comma = v.find(',');
      if ((i < 2) != (comma != std::string_view::npos)) throw LineError("thread block must be 'x,y,z'");
      coord[i] = parse_unsigned_decimal(sim::trim(v.substr(0, comma)), "thread block coordinate");
      if (i < 2) v = v.substr(comma + 1);
    }
  } catch (const LineError& e) {
    lines_->fail(e.what());
  }
  const Dim3& g = header_.info.grid;
  if (coord[0] >= g.x || coord[1] >= g.y || coord[2] >= g.z)
    lines_->fail("thread block (" + std::to_string(coord[0]) + "," + std::to_string(coord[1]) + "," +
                                          std::to_string(coord[2]) + ") is outside the grid");
  std::uint64_t id = (coord[2] * g.y + coord[1]) * g.x + coord[0];
  if (last_read_id_ && id <= *last_read_id_)
    lines_->fail("thread block " + std::to_string(id) + " comes after block " + std::to_string(*last_read_id_) +
                                          ": blocks must be in increasing linear id order");
  last_read_id_ = id;
  return read_block_body(id, begin_line);
}

std::shared_ptr<BlockText> TracegKernelSource::read_block_body(std::uint64_t id, std::uint64_t begin_line) {
  auto block = std::make_shared<BlockText>();
  block->id = id;
  block->warps.resize(header_.info.warps_per_block());
  std::string_view line;
  auto next_nonblank = [&](const char* context) {
    for (;;) {
      if (!lines_->next(line))
        lines_->fail(std::string("file ends ") + context + " (thread block " + std::to_string(id) +
                                              " begun at line " + std::to_string(begin_line) + " has no '#END_TB'; truncated?)");
      line = sim::trim(line);
      if (!line.empty()) return;
    }
  };
  for (;;) {
    next_nonblank("inside a thread block");
    if (line == "#END_TB") break;
    if (!starts_with(line, "warp")) {
      if (is_hex_digit(line.front()))
        lines_->fail("instruction line outside a warp: more lines than the warp's 'insts =' count?");
      lines_->fail("expected 'warp = N' or '#END_TB', found '" + std::string(line.substr(0, 60)) + "'");
    }
    std::uint64_t w, n;
    std::uint64_t warp_line = lines_->line_number();
    try {
      w = parse_unsigned_decimal(value_of(line, "warp"), "warp");
    } catch (const LineError& e) {
      lines_->fail(e.what());
    }
    if (w >= block->warps.size())
      lines_->fail("warp " + std::to_string(w) + " but a block of " + std::to_string(header_.info.block.count()) +
                                            " threads has only " + std::to_string(block->warps.size()) + " warps");
    if (block->warps[w].listed) lines_->fail("warp " + std::to_string(w) + " listed twice in one thread block");
    next_nonblank("after 'warp ='");
    try {
      n = parse_unsigned_decimal(value_of(line, "insts"), "insts");
    } catch (const LineError& e) {
      lines_->fail(e.what());
    }
    BlockText::Warp& warp = block->warps[w];
    warp.listed = true;
    warp.first_line = block->line_numbers.size();
    warp.text_offset = block->text.size();
    for (std::uint64_t i = 0; i < n; ++i) {
      for (;;) {
        if (!lines_->next(line))
          lines_->fail("file ends after " + std::to_string(i) + " of the " + std::to_string(n) +
                                                " instruction lines that 'insts =' announced for warp " + std::to_string(w) +
                                                " (line " + std::to_string(warp_line) + "; truncated?)");
        line = sim::trim(line);
        if (!line.empty()) break;
      }
      if (!is_hex_digit(line.front()))
        lines_->fail("warp " + std::to_string(w) + " (line " + std::to_string(warp_line) + ") announced insts = " +
                                              std::to_string(n) + " but only " + std::to_string(i) + " instruction lines follow");
      block->text.append(line);
      block->text.push_back('\n');
      block->line_numbers.push_back(lines_->line_number());
    }
    warp.count = n;
  }
  if (!last_checked_id_ || id > *last_checked_id_) {
    last_checked_id_ = id;
    const auto listed = static_cast<std::uint64_t>(
        std::count_if(block->warps.begin(), block->warps.end(), [](const BlockText::Warp& w) { return w.listed; }));
    if (listed < block->warps.size()) {
      if (!first_short_block_) first_short_block_ = ShortBlock{id, begin_line, listed, block->warps.size()};
      ++short_blocks_;
    }
  }
  return block;
}

std::optional<std::uint64_t> TracegKernelSource::next_traced_block(std::uint64_t from) {
  if (last_opened_id_ && from <= *last_opened_id_) restart();
  while (!ahead_ || ahead_->id < from) {
    ahead_ = read_block();
    if (ahead_) continue;
    // Blocks that never ran are left out of a trace (FORMAT.md), but not all of them: a file
    // that ends after its header was cut short.
    if (!last_read_id_) lines_->fail("no thread block follows the header; a trace lists at least one");
    return std::nullopt;
  }
  return ahead_->id;
}

std::vector<std::unique_ptr<WarpStream>> TracegKernelSource::open_block(std::uint64_t block_id) {
  next_traced_block(block_id);
  last_opened_id_ = block_id;
  std::vector<std::unique_ptr<WarpStream>> warps;
  if (!ahead_ || ahead_->id != block_id) return warps;  // left out of the trace
  std::shared_ptr<const BlockText> block = std::move(ahead_);
  ahead_.reset();
  // The grid's last block: nothing valid can follow it, so the rest of the file is read now.
  // A block out of order or repeated, or junk after it, fails here as it does for `trace info`,
  // instead of going unread while the run reports a kernel short of blocks.
  if (block_id + 1 == header_.info.grid.count())
    while (read_block() != nullptr) {
    }
  warps.reserve(block->warps.size());
  for (const auto& w : block->warps) {
    if (w.count == 0) warps.push_back(std::make_unique<EmptyWarpStream>());
    else warps.push_back(std::make_unique<TracegWarpStream>(block, w, decoder_, shared_path_));
  }
  return warps;
}

std::vector<std::string> TracegKernelSource::warnings() const {
  std::vector<std::string> out;
  for (const auto& w : decoder_->warnings()) out.push_back(path_ + ": " + w);
  if (first_short_block_) {
    // Accepted, not refused: the missing warps run nothing, which is what a hand-cut trace means.
    const ShortBlock& b = *first_short_block_;
    const std::string more =
        short_blocks_ > 1 ? " (and " + std::to_string(short_blocks_ - 1) + " more blocks list too few)" : "";
    out.push_back(path_ + ":" + std::to_string(b.line) + ": thread block " + std::to_string(b.id) + " lists " +
                  std::to_string(b.listed) + " of its " + std::to_string(b.warps) + " warps" + more +
                  "; the warps not listed run no instruction (a traced block lists all its warps)");
  }
  return out;
}

TraceOrigin TracegKernelSource::origin() const {
  return TraceOrigin{"accelsim", header_.tracer_version_text, header_.binary_version};
}

}  // namespace warpsim::traces::accelsim
