// arch derive's l2.slice_pieces (derive_slice_map.cpp): pairs as the groups {b, b+1, b+4, b+5}
// place them give l2.slice_pieces, pairs that share no slice the consecutive map, and the H200's
// (its groups, and blocks sharing slices that the pieces map's rotation keeps apart) neither;
// pairs that cannot be read are refused with file:line. The pairs written here are as calibrate's
// slice-map family writes them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "analysis/derive/calibration_data.hpp"
#include "analysis/derive/derive_steps.hpp"
#include "analysis/validation/reference_data.hpp"
#include "models/arch.hpp"
#include "sim/errors.hpp"
#include "tests/test_support.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

// calibrate's required files of the H200, and l2_slice_pairs.csv with `rows` under its provenance.
fs::path calibration_with_pairs(const std::string& tag, const std::string& rows) {
  const fs::path dir = test::temp_dir("slice-map-" + tag);
  for (const char* f : {"device.csv", "latency.csv", "dispatch.csv", "bandwidth.csv", "offset.csv", "stride.csv",
                        "persist_10MB.csv", "setaside_stores.csv", "NOTES"})
    fs::copy_file(analysis::validation_data_dir() / "h200" / f, dir / f);
  std::ofstream(dir / "l2_slice_pairs.csv") << "# gpu: NVIDIA H200 (compute capability 9.0), driver 580.159.04\n"
                                            << "a,b,offset_a,offset_b,requests_max,requests_sum\n"
                                            << rows;
  return dir;
}

// The 496 pairs of one 4 KB block's 32 lines, each served by one slice where `one_slice` says so.
std::string block_pairs(const std::function<bool(int, int)>& one_slice) {
  std::ostringstream out;
  for (int a = 0; a < 32; ++a)
    for (int b = a + 1; b < 32; ++b)
      out << a << ',' << b << ',' << 128 * a << ',' << 128 * b << ',' << (one_slice(a, b) ? 4096 : 2048) << ",4097\n";
  return out.str();
}

analysis::Derivation derived(const fs::path& dir) {
  analysis::Derivation d;
  analysis::derive_slice_map(analysis::read_calibration(dir), models::load_arch("hopper-h200"), d);  // 94 slices
  return d;
}

std::string refusal(const fs::path& dir) {
  try {
    derived(dir);
  } catch (const sim::InputError& e) {
    return e.what();
  }
  FAIL("derive_slice_map took " << dir);
  return "";
}

}  // namespace

TEST_CASE("arch derive: the H200's pairs fit neither of the model's slice maps", "[derive]") {
  // Within a 4 KB block the H200's slices serve the groups {b, b+1, b+4, b+5}, as l2.slice_pieces
  // has them, but first lines of blocks less than a round apart share slices where its even
  // rotation never puts them together; the consecutive map misses the groups too.
  for (const char* file : {"l2_slice_pairs.csv.xz", "calibrate-2026-11-30/l2_slice_pairs.csv.xz"}) {
    INFO(file);
    const fs::path dir = calibration_with_pairs(std::string("h200-") + (file[0] == 'l' ? "step" : "family"), "");
    fs::remove(dir / "l2_slice_pairs.csv");
    fs::copy_file(analysis::validation_data_dir() / "h200" / file, dir / "l2_slice_pairs.csv.xz");
    const analysis::Derivation d = derived(dir);
    REQUIRE(d.values().size() == 1);
    CHECK(d.values()[0].key == "l2.slice_pieces");
    CHECK(d.values()[0].value == "false");
    const std::string& source = d.values()[0].source;
    CHECK(source.find("l2_slice_pairs.csv.xz:") == 0);  // read through xz
    CHECK(source.find("of 2016 pairs of lines, 72 served by one slice") != std::string::npos);
    CHECK(source.find("{b, b+1, b+4, b+5} of l2.slice_pieces 32 (32 of lines in different 4 KB blocks)") !=
          std::string::npos);
    CHECK(source.find("by consecutive lines to consecutive slices 84 (36 of") != std::string::npos);
    CHECK(source.find("neither map the model has") != std::string::npos);
  }
}

TEST_CASE("arch derive's slice map: the groups, consecutive slices, neither, or none measured", "[derive]") {
  const auto group = [](int line) { return ((line >> 3) & 3) << 1 | ((line >> 1) & 1); };
  const auto value = [](const analysis::Derivation& d) { return d.values().at(0).value + " " + d.values().at(0).source; };

  const auto groups = derived(calibration_with_pairs("groups", block_pairs([&](int a, int b) { return group(a) == group(b); })));
  CHECK(value(groups).rfind("true ", 0) == 0);
  CHECK(value(groups).find("of l2.slice_pieces 0 (0 of lines in different 4 KB blocks)") != std::string::npos);
  const auto none = derived(calibration_with_pairs("none", block_pairs([](int, int) { return false; })));
  CHECK(value(none).rfind("false ", 0) == 0);
  CHECK(value(none).find("of 496 pairs of lines, 0 served by one slice") != std::string::npos);
  CHECK(value(none).find("by consecutive lines to consecutive slices 0 (0 of") != std::string::npos);
  // Four consecutive lines a slice: 48 pairs again, but not the groups' pairs.
  const auto fours = derived(calibration_with_pairs("fours", block_pairs([](int a, int b) { return a / 4 == b / 4; })));
  CHECK(value(fours).rfind("false ", 0) == 0);
  CHECK(value(fours).find("48 served by one slice") != std::string::npos);
  CHECK(value(fours).find("neither map the model has") != std::string::npos);
  // Without the file the key is left to the base preset.
  const fs::path dir = calibration_with_pairs("absent", "");
  fs::remove(dir / "l2_slice_pairs.csv");
  CHECK(derived(dir).values().empty());
}

TEST_CASE("arch derive refuses slice pairs it cannot read as a map", "[derive]") {
  SECTION("a block without all its pairs") {
    std::string rows = block_pairs([](int, int) { return false; });
    rows.resize(rows.rfind("30,31,"));
    CHECK(refusal(calibration_with_pairs("incomplete", rows)).find("no 4 KB block with all 496 pairs") != std::string::npos);
  }
  SECTION("a share neither one slice's nor two's") {
    std::string rows = block_pairs([](int, int) { return false; });
    rows.replace(rows.find("0,5,0,640,2048"), 14, "0,5,0,640,2900");
    const fs::path dir = calibration_with_pairs("share", rows);
    CHECK(refusal(dir).find((dir / "l2_slice_pairs.csv").string() + ":7: requests_max is 70.8% of requests_sum") !=
          std::string::npos);
  }
  SECTION("an offset inside a line, a pair of one line, more on a slice than the launch made") {
    const std::string rows = block_pairs([](int, int) { return false; });
    auto with = [&](const std::string& from, const std::string& to) {
      std::string r = rows;
      r.replace(r.find(from), from.size(), to);
      return r;
    };
    CHECK(refusal(calibration_with_pairs("inside", with("0,1,0,128,", "0,1,0,130,"))).find(":3: offset_b 130 is not the start") !=
          std::string::npos);
    CHECK(refusal(calibration_with_pairs("same", with("0,1,0,128,", "0,1,0,0,"))).find(":3: impossible offset_b 0") !=
          std::string::npos);
    CHECK(refusal(calibration_with_pairs("more", with("0,1,0,128,2048,4097", "0,1,0,128,5000,4097")))
              .find(":3: impossible requests_max 5000") != std::string::npos);
  }
  SECTION("a file from another GPU, a truncated .xz") {
    const fs::path foreign = calibration_with_pairs("foreign", block_pairs([](int, int) { return false; }));
    std::string text;
    {
      std::ifstream in(foreign / "l2_slice_pairs.csv");
      std::stringstream s;
      s << in.rdbuf();
      text = s.str();
    }
    std::ofstream(foreign / "l2_slice_pairs.csv") << "# gpu: NVIDIA H100 80GB HBM3" << text.substr(text.find(" (compute"));
    CHECK(refusal(foreign).find("measured on 'NVIDIA H100 80GB HBM3'") != std::string::npos);
    const fs::path truncated = calibration_with_pairs("xz", "");
    fs::remove(truncated / "l2_slice_pairs.csv");
    std::ifstream in(analysis::validation_data_dir() / "h200" / "l2_slice_pairs.csv.xz", std::ios::binary);
    std::string xz((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(truncated / "l2_slice_pairs.csv.xz", std::ios::binary) << xz.substr(0, xz.size() / 2);
    CHECK(refusal(truncated).find((truncated / "l2_slice_pairs.csv.xz").string()) != std::string::npos);
  }
}

TEST_CASE("calibrate's slice-map family measures the H200's map as the step before it did, pair by pair", "[derive]") {
  // h200/calibrate-2026-11-30/l2_slice_pairs{,_repeat,_third}.csv.xz: `tools/gpu-probes/calibrate
  // OUT slice-map`, before and after slice_map.py's ncu run became one helper, and with the offsets
  // taken from the probe's own case lines; h200/l2_slice_pairs.csv.xz: measure-h100's slice-map step
  // of 11-29, the same 64 lines.
  const fs::path data = analysis::validation_data_dir() / "h200";
  const auto one_slice = [](const analysis::CsvTable& t, std::size_t i) {
    return t.number(i, "requests_max") > 0.75 * t.number(i, "requests_sum");
  };
  const analysis::CsvTable step = analysis::read_csv(data / "l2_slice_pairs.csv.xz");
  std::map<std::pair<std::string, std::string>, bool> first;
  for (std::size_t i = 0; i < step.rows.size(); ++i)
    first[{step.rows[i].at("offset_a"), step.rows[i].at("offset_b")}] = one_slice(step, i);
  for (const char* run : {"l2_slice_pairs.csv.xz", "l2_slice_pairs_repeat.csv.xz", "l2_slice_pairs_third.csv.xz"}) {
    INFO(run);
    const analysis::CsvTable family = analysis::read_csv(data / "calibrate-2026-11-30" / run);
    REQUIRE(family.rows.size() == 2016);
    int shared = 0;
    for (std::size_t i = 0; i < family.rows.size(); ++i) {
      const auto at = first.find({family.rows[i].at("offset_a"), family.rows[i].at("offset_b")});
      REQUIRE(at != first.end());
      INFO(family.where(i));
      CHECK(one_slice(family, i) == at->second);
      shared += one_slice(family, i);
    }
    CHECK(shared == 72);
  }
}
