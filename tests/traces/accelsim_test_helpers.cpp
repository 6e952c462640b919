#include "tests/traces/accelsim_test_helpers.hpp"

#include <fstream>
#include <sstream>

#include "tests/test_support.hpp"
#include "traces/accelsim/byte_source.hpp"

namespace warpsim::test {
using namespace traces;

std::string traceg_header(int version, const std::string& grid, const std::string& block, int binary_version, bool lineinfo) {
  std::ostringstream s;
  s << "-kernel name = _Z4testv\n-kernel id = 1\n-grid dim = " << grid << "\n-block dim = " << block
    << "\n-shmem = 0\n-nregs = 16\n-binary version = " << binary_version << "\n-cuda stream id = 0\n";
  if (version >= 3) s << "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0100000000\n";
  s << "-nvbit version = 1.7\n";
  if (version == 1) s << "-accelsim tracer version = 1.2\n";
  if (version >= 3) s << "-accelsim tracer version = " << version << "\n";
  if (version >= 4) s << "-enable lineinfo = " << (lineinfo ? 1 : 0) << "\n";
  s << "\n#traces format = whatever\n\n";
  return s.str();
}

std::string one_warp_trace(int version, const std::vector<std::string>& lines, int binary_version) {
  std::string s = traceg_header(version, "(1,1,1)", "(32,1,1)", binary_version);
  s += "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " + std::to_string(lines.size()) + "\n";
  for (const auto& l : lines) s += l + "\n";
  s += "\n#END_TB\n";
  return s;
}

std::unique_ptr<accelsim::TracegKernelSource> source_from_text(const std::string& text, const std::string& name) {
  return std::make_unique<accelsim::TracegKernelSource>(name, [text] { return accelsim::memory_byte_source(text); });
}

std::vector<DecodedInstruction> read_all(KernelSource& source) {
  std::vector<DecodedInstruction> out;
  for (std::uint64_t b = 0; b < source.info().grid.count(); ++b) {
    auto warps = source.open_block(b);
    for (std::size_t w = 0; w < warps.size(); ++w) {
      DecodedInstruction d;
      d.block = b;
      d.warp = w;
      while (warps[w]->next(d.inst)) out.push_back(d);
    }
  }
  return out;
}

Instruction decode_one(int version, const std::string& line, int binary_version) {
  auto source = source_from_text(one_warp_trace(version, {line}, binary_version));
  auto warps = source->open_block(0);
  Instruction inst;
  if (warps.empty() || !warps[0]->next(inst)) throw std::runtime_error("no instruction");
  return inst;
}

bool same_instruction(const Instruction& a, const Instruction& b, std::string* why) {
  auto fail = [&](const char* field) {
    if (why) *why = field;
    return false;
  };
  if (a.pc != b.pc) return fail("pc");
  if (a.active_mask != b.active_mask) return fail("active_mask");
  if (a.unit != b.unit) return fail("unit");
  if (a.control != b.control) return fail("control");
  if (a.dst_count != b.dst_count || a.dst != b.dst) return fail("dst");
  if (a.src_count != b.src_count || a.src != b.src) return fail("src");
  if (a.space != b.space) return fail("space");
  if (a.mem_op != b.mem_op) return fail("mem_op");
  if (a.cache_op != b.cache_op) return fail("cache_op");
  if (a.width != b.width) return fail("width");
  if (a.is_memory())
    for (int lane = 0; lane < kWarpSize; ++lane)
      if ((a.active_mask >> lane & 1) && a.address(lane) != b.address(lane)) return fail("addr");
  return true;
}

namespace {
std::uint64_t number(std::string s) {
  std::string digits;
  for (char c : s)
    if (c >= '0' && c <= '9') digits += c;
  return std::stoull(digits);
}
std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(0, 1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '`' || s.back() == '/')) s.pop_back();
  return s;
}
}  // namespace

std::vector<ReadmeRow> readme_rows() {
  std::ifstream in(shared_path("traces/README.md"));
  std::vector<ReadmeRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(cell);
    if (cells.size() < 6) continue;
    ReadmeRow r;
    r.folder = trim(cells[0]);
    std::string gb = cells[4];
    std::size_t x = gb.find("\xc3\x97");  // U+00D7 MULTIPLICATION SIGN
    r.blocks = number(gb.substr(0, x));
    r.threads = number(gb.substr(x + 2));
    r.instruction_lines = number(cells[5]);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace warpsim::test
