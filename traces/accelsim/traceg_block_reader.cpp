#include "traces/accelsim/traceg_block_reader.hpp"

#include "sim/errors.hpp"
#include "sim/text.hpp"
#include "traces/accelsim/field_cursor.hpp"

namespace warpsim::traces::accelsim {
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

}  // namespace

TracegBlockReader::TracegBlockReader(std::unique_ptr<LineReader> lines, const TraceHeader& header)
    : lines_(std::move(lines)), info_(header.info), decoder_(header), begin_pending_(header.ended_at_begin_tb) {}

std::shared_ptr<const wtrace::BlockRecord> TracegBlockReader::next() {
  std::string_view line;
  if (!begin_pending_) {
    for (;;) {
      if (!lines_->next(line)) {
        // Blocks that never ran are left out of a trace (FORMAT.md), but not all of them: a file
        // that ends after its header was cut short.
        if (!last_read_id_) lines_->fail("no thread block follows the header; a trace lists at least one");
        return nullptr;
      }
      line = sim::trim(line);
      if (line.empty()) continue;
      if (line == "#BEGIN_TB") break;
      lines_->fail("expected '#BEGIN_TB', found '" + std::string(line.substr(0, 60)) + "'");
    }
  }
  begin_pending_ = false;
  const std::uint64_t begin_line = lines_->line_number();

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
  const Dim3& g = info_.grid;
  if (coord[0] >= g.x || coord[1] >= g.y || coord[2] >= g.z)
    lines_->fail("thread block (" + std::to_string(coord[0]) + "," + std::to_string(coord[1]) + "," +
                 std::to_string(coord[2]) + ") is outside the grid");
  const std::uint64_t id = (coord[2] * g.y + coord[1]) * g.x + coord[0];
  if (last_read_id_ && id <= *last_read_id_)
    lines_->fail("thread block " + std::to_string(id) + " comes after block " + std::to_string(*last_read_id_) +
                 ": blocks must be in increasing linear id order");
  last_read_id_ = id;
  return read_block_body(id, begin_line);
}

std::shared_ptr<const wtrace::BlockRecord> TracegBlockReader::read_block_body(std::uint64_t id, std::uint64_t begin_line) {
  const std::uint32_t warps = info_.warps_per_block();
  builder_.begin(id, warps);
  std::vector<bool> listed(warps, false);
  std::uint32_t listed_count = 0;
  std::string_view line;
  auto next_nonblank = [&](const char* context) {
    for (;;) {
      if (!lines_->next(line))
        lines_->fail(std::string("file ends ") + context + " (thread block " + std::to_string(id) + " begun at line " +
                     std::to_string(begin_line) + " has no '#END_TB'; truncated?)");
      line = sim::trim(line);
      if (!line.empty()) return;
    }
  };
  for (;;) {
    next_nonblank("inside a thread block");
    if (line == "#END_TB") break;
    if (!starts_with(line, "warp")) {
      if (is_hex_digit(line.front())) lines_->fail("instruction line outside a warp: more lines than the warp's 'insts =' count?");
      lines_->fail("expected 'warp = N' or '#END_TB', found '" + std::string(line.substr(0, 60)) + "'");
    }
    std::uint64_t w, n;
    const std::uint64_t warp_line = lines_->line_number();
    try {
      w = parse_unsigned_decimal(value_of(line, "warp"), "warp");
    } catch (const LineError& e) {
      lines_->fail(e.what());
    }
    if (w >= warps)
      lines_->fail("warp " + std::to_string(w) + " but a block of " + std::to_string(info_.block.count()) +
                   " threads has only " + std::to_string(warps) + " warps");
    if (listed[w]) lines_->fail("warp " + std::to_string(w) + " listed twice in one thread block");
    listed[w] = true;
    ++listed_count;
    next_nonblank("after 'warp ='");
    try {
      n = parse_unsigned_decimal(value_of(line, "insts"), "insts");
    } catch (const LineError& e) {
      lines_->fail(e.what());
    }
    read_warp(static_cast<std::uint32_t>(w), n, warp_line);
  }
  auto record = std::make_shared<wtrace::BlockRecord>(
      wtrace::parse_block_record(builder_.finish(), info_, lines_->path() + ":" + std::to_string(begin_line)));
  record->listed_warps = listed_count;
  record->first_line = begin_line;
  return record;
}

void TracegBlockReader::read_warp(std::uint32_t warp, std::uint64_t count, std::uint64_t warp_line) {
  std::string_view line;
  for (std::uint64_t i = 0; i < count; ++i) {
    for (;;) {
      if (!lines_->next(line))
        lines_->fail("file ends after " + std::to_string(i) + " of the " + std::to_string(count) +
                     " instruction lines that 'insts =' announced for warp " + std::to_string(warp) + " (line " +
                     std::to_string(warp_line) + "; truncated?)");
      line = sim::trim(line);
      if (!line.empty()) break;
    }
    if (!is_hex_digit(line.front()))
      lines_->fail("warp " + std::to_string(warp) + " (line " + std::to_string(warp_line) + ") announced insts = " +
                   std::to_string(count) + " but only " + std::to_string(i) + " instruction lines follow");
    if (const Instruction* seen = lines_seen_.find(line)) {
      builder_.add(warp, *seen);
      continue;
    }
    try {
      decoder_.decode(line, instruction_);
    } catch (const LineError& e) {
      lines_->fail(e.what());
    }
    lines_seen_.remember(line, instruction_);
    builder_.add(warp, instruction_);
  }
}

}  // namespace warpsim::traces::accelsim
