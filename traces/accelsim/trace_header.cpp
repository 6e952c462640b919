#include "traces/accelsim/trace_header.hpp"

#include <map>
#include <string_view>

#include "sim/errors.hpp"
#include "traces/accelsim/field_cursor.hpp"
#include "sim/text.hpp"

namespace warpsim::traces::accelsim {
namespace {

using sim::InputError;

// "(x,y,z)" with every component at least 1.
Dim3 parse_dim3(std::string_view value, const char* what) {
  if (value.size() < 2 || value.front() != '(' || value.back() != ')')
    throw LineError(std::string(what) + " must look like (x,y,z), not '" + std::string(value) + "'");
  value = value.substr(1, value.size() - 2);
  std::uint64_t parts[3];
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = value.find(',');
    if ((i < 2) != (comma != std::string_view::npos))
      throw LineError(std::string(what) + " must have exactly three components");
    std::string_view part = sim::trim(i < 2 ? value.substr(0, comma) : value);
    parts[i] = parse_unsigned_decimal(part, what);
    if (parts[i] == 0 || parts[i] > UINT32_MAX) throw LineError(std::string(what) + " components must be 1..2^32-1");
    if (i < 2) value = value.substr(comma + 1);
  }
  return Dim3{static_cast<std::uint32_t>(parts[0]), static_cast<std::uint32_t>(parts[1]),
              static_cast<std::uint32_t>(parts[2])};
}

std::uint32_t parse_u32(std::string_view value, const char* what) {
  std::uint64_t v = parse_unsigned_decimal(value, what);
  if (v > UINT32_MAX) throw LineError(std::string(what) + " is larger than 2^32-1");
  return static_cast<std::uint32_t>(v);
}

// sscanf("%d") semantics the tracer relies on: "1.2" is version 1.
int parse_tracer_version(std::string_view value) {
  std::size_t dot = value.find('.');
  std::uint64_t major = parse_unsigned_decimal(value.substr(0, dot), "accelsim tracer version");
  if (dot != std::string_view::npos) parse_unsigned_decimal(value.substr(dot + 1), "accelsim tracer version");
  if (major > 5)
    throw LineError("accelsim tracer version " + std::string(value) +
                    " is newer than this reader knows (legacy, 1.2, 3, 4 and 5)");
  return static_cast<int>(major);
}

constexpr const char* kKnownKeys =
    "kernel name, kernel id, grid dim, block dim, shmem, nregs, binary version, cuda stream id, "
    "shmem base_addr, local mem base_addr, nvbit version, accelsim tracer version, enable lineinfo";

// One "-key = value" line into `h`; `seen` collects required keys.
void apply_header_line(std::string_view line, TraceHeader& h, unsigned& seen) {
  std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) throw LineError("header line without '=': '" + std::string(line) + "'");
  std::string_view key = sim::trim(line.substr(1, eq - 1));
  std::string_view value = sim::trim(line.substr(eq + 1));
  if (key == "kernel name") {
    if (value.empty()) throw LineError("empty kernel name");
    h.info.name = std::string(value);
    seen |= 1;
  } else if (key == "kernel id") {
    h.kernel_id = parse_u32(value, "kernel id");
  } else if (key == "grid dim") {
    h.info.grid = parse_dim3(value, "grid dim");
    // CUDA's limits; they also keep block ids (x*y*z) far from overflowing 64 bits.
    if (h.info.grid.x > 0x7fffffffu || h.info.grid.y > 65535 || h.info.grid.z > 65535)
      throw LineError("grid dim is beyond CUDA's limits (2^31-1, 65535, 65535)");
    seen |= 2;
  } else if (key == "block dim") {
    h.info.block = parse_dim3(value, "block dim");
    if (h.info.block.count() > 4096) throw LineError("block dim has more than 4096 threads");
    seen |= 4;
  } else if (key == "shmem") {
    h.info.shared_bytes_per_block = parse_u32(value, "shmem");
  } else if (key == "nregs") {
    h.info.registers_per_thread = parse_u32(value, "nregs");
  } else if (key == "binary version") {
    h.binary_version = static_cast<int>(parse_u32(value, "binary version"));
  } else if (key == "cuda stream id") {
    h.info.stream_id = parse_unsigned_decimal(value, "cuda stream id");
  } else if (key == "shmem base_addr") {
    h.shmem_base = parse_hex(value, "shmem base_addr");
  } else if (key == "local mem base_addr") {
    h.local_base = parse_hex(value, "local mem base_addr");
  } else if (key == "nvbit version") {
    h.nvbit_version = std::string(value);
  } else if (key == "accelsim tracer version") {
    h.tracer_version = parse_tracer_version(value);
    h.tracer_version_text = std::string(value);
  } else if (key == "enable lineinfo") {
    std::uint64_t v = parse_unsigned_decimal(value, "enable lineinfo");
    if (v > 1) throw LineError("enable lineinfo must be 0 or 1");
    h.lineinfo = v == 1;
  } else {
    throw LineError("unknown header key '" + std::string(key) + "' (known: " + kKnownKeys + ")");
  }
}

}  // namespace

TraceHeader read_trace_header(LineReader& lines) {
  TraceHeader h;
  h.tracer_version_text = "legacy";
  unsigned seen = 0;
  std::map<std::string, std::uint64_t, std::less<>> key_lines;  // each key's line, to refuse a repeat
  std::uint64_t first_line = 0, last_line = 0;
  std::string_view line;
  for (;;) {
    if (!lines.next(line)) lines.fail("file ends inside the header (no '#' line and no thread blocks)");
    std::string_view t = sim::trim(line);
    if (t.empty()) continue;
    if (t.front() == '#') {
      h.ended_at_begin_tb = t == "#BEGIN_TB";
      break;
    }
    if (t.front() != '-') lines.fail("expected a '-key = value' header line, found '" + std::string(t.substr(0, 60)) + "'");
    if (first_line == 0) first_line = lines.line_number();
    last_line = lines.line_number();
    try {
      apply_header_line(t, h, seen);
    } catch (const LineError& e) {
      lines.fail(e.what());
    }
    // apply_header_line accepted the line, so it has a '=' and a known key.
    const std::string key(sim::trim(t.substr(1, t.find('=') - 1)));
    if (auto [at, added] = key_lines.emplace(key, lines.line_number()); !added) {
      lines.fail("'-" + key + "' is already given on line " + std::to_string(at->second) + " (which one holds?)");
    }
  }
  // Limits the trace itself cannot check (a block too large for the chosen GPU) name the header.
  h.info.origin = lines.path() + ":" + std::to_string(first_line);
  if (last_line > first_line) h.info.origin += '-' + std::to_string(last_line);
  if (!(seen & 1)) lines.fail("header has no '-kernel name' line");
  if (!(seen & 2)) lines.fail("header has no '-grid dim' line");
  if (!(seen & 4)) lines.fail("header has no '-block dim' line");
  if (h.lineinfo && h.tracer_version < 4) lines.fail("'-enable lineinfo' needs tracer version 4 or later");
  return h;
}

}  // namespace warpsim::traces::accelsim
