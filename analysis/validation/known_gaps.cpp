#include "analysis/validation/known_gaps.hpp"

#include <map>

namespace warpsim::analysis {
namespace {

// The writeOffset rows whose L1 hit rate the model does not meet.
const char* const kSplitStores =
    "where a warp's stores split lines with its neighbour's (l1.stores_allocate), the second of two "
    "neighbouring warps to store hits the line the first allocated. The model's warps of a block store "
    "in launch order, the lower warp first in 69% of pairs a median 12 cycles apart; the H100's in 50%, "
    "74-90 cycles apart (h100-measured/timeline_writeOffset), and those records give ncu's store hits "
    "at offsets 1, 8 and 16 when a store finds the line only 17 cycles or more after the other warp's "
    "(analysis/validation/store_pairs.py, h100-measured/store_hits.csv). Closing it needs the model's "
    "warps to drift apart as the H100's do (their loads' data comes back tens of cycles apart), then "
    "that delay.";

// The rows of both sizes (n = 2^20, and 2^26 in the full tables): the same pairs of warps.
std::vector<KnownGap> split_store_rows(const std::string& quantity, const std::string& reason) {
  std::vector<KnownGap> out;
  for (const char* lg : {"20", "26"})
    for (const char* offset : {"1", "2", "4", "8", "11", "16"})
      out.push_back({std::string("writeOffset lg=") + lg + ";bs=512;offset=" + offset + " " + quantity, reason});
  return out;
}

const char* const kPersistOccupancy =
    "the model fills 0.77-0.81 of the warp slots where ncu counts 0.52-0.68. It counts a warp until its "
    "block's last warp exits and holds a finished block's slot until its stores are acknowledged (after "
    "the set-aside's slowed write-backs: ~1,500 cycles after the warps exit); the H100 counts each warp "
    "to its own exit and, without a set-aside, takes a block's slot again ~480 cycles after its last warp "
    "whatever its stores' acknowledgement (h100-measured/store_acks*, analysis/validation/store_acks.py). "
    "With both changed (dispatch.warps_counted_to_block_end and dispatch.block_waits_for_stores off) the "
    "H100 table's rows move to -0.03 to +0.17, hitRatio 1 within 0.03 (docs/model.md, "
    "\"Occupancy as ncu counts it\"). What is left is the set-aside's own: with it, where the L2 writes "
    "dirty lines back, the H100's loads wait far less evenly (99th percentile 4.0-8.3x the 10th; without "
    "it, or without the write-backs, 1.4-2.2x; the model 1.7-3.1x either way), so a block's warps end "
    "thousands of cycles apart and its slot stays held for the last (h100-measured/load_spread*, "
    "analysis/validation/load_waits.py; docs/model.md, \"How far apart a block's warps finish\"). The slow "
    "loads are whole L2 slices stalling, hits included, for up to ~2,700 cycles at a time under the "
    "set-aside's write-backs (h200/slice_stalls*, h200/l2_slice_pairs; docs/model.md, \"Where a set-aside's "
    "loads stall\"); the set-aside's cost paid in such batches (l2.set_aside_write_back_batch) makes the "
    "model's persistKernel 22-35% slow, so what makes a stall cheap on the GPU comes first.";

const char* const kLargeOccupancy =
    "at n = 2^26 the model fills 0.72-0.74 of the warp slots at every offset, where ncu counts 0.70-0.71 "
    "at offsets that keep loads 128-byte aligned (0, 32, 64, 128: at 32 outside the tolerance), 0.73 at "
    "1-16 and 0.71 in writeOffset. The H100's first and last warp of every block "
    "(h100-measured/timeline_readOffset.csv.xz, analysis/validation/block_slots.py --first-last) show "
    "why the offsets differ: at offset 11 its blocks span 1,851 cycles and leave their slots empty a "
    "median 642, at offset 0 1,768 and 679; the model's spanned 1,673 and 1,654 and waited 781 and 799 "
    "(before its writes took the bus time a refresh leaves them), so it misses what a load that "
    "straddles two lines costs under load. The strided reads (0.69-0.93 against 0.72-0.87) differ in "
    "both directions. Two errors offset each other here: "
    "ncu counts each warp to its own exit, not to its block's end, and the H100 takes a block's slot again "
    "~450 cycles after its last warp, not after its stores' ~1,150-cycle acknowledgements "
    "(h100-measured/store_acks*); with both changed the copies filled 0.65 (docs/model.md). With "
    "l2.clean_victims_first the strided reads at strides 4 and 8 fill 0.70 and 0.71 (H100 0.77 and 0.80): "
    "their loads' clean lines are evicted and their stores' dirty lines written back by the count a set "
    "keeps, and the model holds each block's slot until those write-backs are acknowledged, which the "
    "H100 does not (store_acks).";

// The same copies on the H200: ncu counts less than on the H100, the model about as much.
const char* const kLargeOccupancyH200 =
    "at n = 2^26 the model fills 0.72-0.73 of the warp slots at every offset, where ncu counts 0.69-0.70 "
    "on the H200 at the aligned offsets and in writeOffset (0.72 at offsets 1-16 of readOffset), 0.01-0.03 "
    "less than on the H100; the strided reads 0.67-0.89 against 0.70-0.84. The model's slots follow its "
    "stores' acknowledgements, which wait for the write-backs they cause, where the GPUs take a block's "
    "slot again ~450-510 cycles after its last warp (h100-measured/store_acks*, h200/store_acks*; "
    "docs/model.md, \"Occupancy as ncu counts it\"). Writes that take the bus time a refresh leaves them "
    "are acknowledged sooner, and the copies' 0.713-0.719 became 0.722-0.730 (docs/model.md, the strided "
    "curves). The warps' own lives differ too: while stored lines are written back to DRAM beside "
    "the reads, every load that goes there waits longer on the H200 (+67 cycles a load at 0.16 TB/s "
    "written, +108 at 0.38; beside hardly any reads +10 at 0.23; h200/stream_latency*, "
    "analysis/validation/stream_latency.py), where the model's reads wait at most for the write bursts "
    "ahead of them (+9; docs/model.md, \"What a streamed load waits for\"). With the DRAM's write queue "
    "(dram.write_queue, off) they wait +131, and the slots fill further (0.75): it goes on with the count "
    "(docs/model.md, \"A write queue and the bus's turns\").";

std::map<std::string, std::vector<KnownGap>> build() {
  std::map<std::string, std::vector<KnownGap>> gaps;
  gaps["fermi-s5"] = {
      {"writeOffset time offset 11 / offset 0",
       "Fermi's misaligned stores: measured 1.37, simulated 1.08. The ECC fill of partial sectors "
       "(l2.fill_partial_writes) adds their DRAM reads, but the model's Fermi is bound by the L2 slice "
       "port (110 GB/s), where a fill costs nothing. S5's ratios together point at a DRAM-bound Fermi "
       "(ECC-derated) with whole-line fills and a slower L2-to-SM load return; closing it needs nvprof "
       "counters of an M2070 (tools/gpu-probes/README.md names them)."}};
  gaps["h100-counters"] = split_store_rows("l1_hit_rate", kSplitStores);
  for (const char* n : {"readOffset lg=26;* achieved_occupancy", "readOffsetNC lg=26;* achieved_occupancy",
                        "stridedRead lg=26;* achieved_occupancy"})
    gaps["h100-counters"].push_back({n, kLargeOccupancy});
  gaps["h100-counters"].push_back(
      {"stridedRead lg=26;bs=256;stride=* time_ns",
       "strides 32 (-13%) and 64 (-22%) at n = 2^26: the DRAM model moves 64-byte pieces and fills whole "
       "pairs of sectors; at strides 32 and 64 one 64-byte piece in two and in four, and it is faster than "
       "the H100 (the sparse rows below show how). At stride 32 l2.clean_victims_first keeps the stores' dirty lines and evicts the "
       "loads' clean ones, and the model's stores wait for the write-backs the count of dirty lines a set "
       "keeps then makes (see the occupancy rows)."});
  // stridedRead past stride 64 (h100-measured/sparse.csv): the rows outside, each named, so that a
  // DRAM model that closes one fails the validation test until its entry goes.
  const char* const sparse =
      "DRAM pieces far apart (h100-measured/sparse.csv: every load one 64-byte piece, dram__sectors_read "
      "twice the sectors asked, 64 B to 4 KB apart at strides 16 to 1024): the H100 reads 89% of its peak "
      "at 64 B, 82% at 128 B, 70% at 256 B, 64% at 512 B, 60% at 1 KB and 56% at 4 KB; the model reads "
      "90% up to 512 B (its few writes in the bus time a refresh leaves them) and falls only where a row "
      "it opens serves one or two pieces (1 KB apart and more), where it meets the H100 (1.74 against "
      "1.64 TB/s at 4 KB: a 64-byte activation per 2.9 ns a channel, as its 16 banks and 48 ns row cycle "
      "allow). At 128 B-1 KB apart it is 12-32% short: what costs is each 256-byte unit visited. The DRAM "
      "model's bank turn to another unit (dram.unit_turn_ps 750, with dram.refresh_holds_bus false) meets "
      "the curve from 64 to 512 B apart, but is off until the short streams, the write cost of a mix and "
      "the occupancy rows come with it (docs/model.md, \"The read side\").";
  for (const char* n : {"stridedRead lg=27;bs=256;stride=32 time_ns", "stridedRead lg=28;bs=256;stride=64 time_ns",
                        "stridedRead lg=29;bs=256;stride=128 time_ns", "stridedRead lg=30;bs=256;stride=256 time_ns"})
    gaps["h100-counters"].push_back({n, sparse});
  gaps["h100-persistence"] = {{"persistKernel * achieved_occupancy", kPersistOccupancy}};
  gaps["h200-persistence"] = {
      {"persistKernel persistMB=10;hitRatio=-1.000;window=0 time_ns",
       "without a window the model takes 12.4% long on the H200 (8.9% on the H100) with the H200's own "
       "set-aside cost (l2.set_aside_write_back_cycles from h200/setaside_stores.csv: with 10 ways of 16 "
       "set aside each write-back holds its slice 14.2 cycles, 13.8 on the H100; with the H100's value the "
       "row ran 10.2% long): the model's write-backs cost what the 256 MB write stream shows, but "
       "persistKernel, which reads as much as it writes, loses less to them on both GPUs. Under smaller "
       "set-asides the model writes the hot region back again and again where the GPUs keep it "
       "(h200/setaside.csv: 261 MB written at 0 and 8 MB set aside, 279 MB at 16, 527 MB at the "
       "largest; the model 525 MB at each: its three dirty lines a set, l2.dirty_lines_per_set, are "
       "too few for the hot region's 2.7 a set with the stream's stores beside them), so what the "
       "largest set-aside costs cannot yet be told apart from how often the hot lines go back."},
      {"persistKernel * achieved_occupancy", kPersistOccupancy}};
  gaps["h100-limiter"] = {
      {"stride*.csv stridedRead lg=26;bs=256;stride=64 dram %",
       "the stride 64 rows' times (h100-counters: DRAM pieces one to a 256-byte unit, the sparse rows), and "
       "with them their DRAM utilisation: 80.5% against 68.5. With the DRAM model's bank turn to another "
       "unit on (docs/model.md, \"The read side\"), 61.4%, and every row of this table within."}};
  // A ~3 us launch makes a few dependent DRAM round trips; one that meets a refresh takes ~10%
  // longer. On the H100 that happens at random, in the model where the launch falls in the groups'
  // refresh schedule (dram.refresh_groups), so single launches differ both ways, and which ones
  // moves with any change of the model's timing (a kernel start 50 ns later).
  gaps["h100-apps"] = {
      {"backprop 2 bpnn_adjust_weights_cuda time_ns",
       "the model's launch meets no refresh (3,247 ns; with the kernel start 50 ns later it meets one and "
       "takes 3,526); the H100's took 3,680: short by 12% without a refresh, by 4% with one."},
      {"gaussian 110 Fan2 time_ns",
       "the H100's launch took 3,232 ns where Fan2 launches 106-114 took 3,072-3,232 (the model's "
       "2,898-3,331): at the top of the GPU's spread, as one that meets a refresh is."}};
  gaps["h200-counters"] = split_store_rows("l1_hit_rate", kSplitStores);
  gaps["h200-counters"].push_back(
      {"stridedRead lg=26;bs=256;stride=2 time_ns",
       "a byte written costs the H200 1.79 bytes read at stride 2 and 2.38 at stride 1 (h200/stride.csv), "
       "and writes alone 1.04 (h200/dram_mix.csv): a mix pays for turning the bus round as often as both "
       "directions wait. hopper-h200 charges each write a share of two turnarounds over dram.write_batch "
       "bursts whatever the mix (writes queued while a refresh holds the reads go free), so stride 2, a "
       "third of its bytes written, runs 10% long. A turn when the bus changes direction, with the writes "
       "queued behind the reads (dram.write_queue, fitted to dram_mix.csv and stream_latency), gives "
       "111.8 us against the H200's 111.2; it is off until the occupancy count comes with it "
       "(docs/model.md, \"A write queue and the bus's turns\")."});
  for (const char* n : {"stridedRead lg=26;bs=256;stride=32 time_ns", "stridedRead lg=26;bs=256;stride=64 time_ns"})
    gaps["h200-counters"].push_back(
        {n, "as on the H100 (h100-counters' rows of the same name): at strides 32 and 64 every load is one "
            "64-byte DRAM piece, one in two and one in four of a 256-byte unit, which the H200 reads at 79% "
            "and 62% of its peak (h200/sparse.csv, 128 and 256 B apart) and the model at no cost beyond "
            "their bytes. With the H100's bank turn to another unit (dram.unit_turn_ps) it meets the H200's "
            "curve from 64 to 256 B apart (docs/model.md, \"The read side\")."});
  for (const char* n : {"readOffset lg=26;* achieved_occupancy", "readOffsetNC lg=26;* achieved_occupancy",
                        "writeOffset lg=26;* achieved_occupancy", "stridedRead lg=26;* achieved_occupancy"})
    gaps["h200-counters"].push_back({n, kLargeOccupancyH200});
  // The same curve on the H200 (h200/sparse.csv), each row outside named as on the H100.
  const char* const sparse_h200 =
      "DRAM pieces far apart (h200/sparse.csv, measured as the H100's): the H200 reads 90% of its peak "
      "with 64-byte pieces 64 B apart, 79% at 128 B, 62% at 256 B, 56% at 512 B, 52% at 1 KB, 49% at 2 KB "
      "and 46% at 4 KB, further below its 4.81 TB/s than the H100 below its 3.35; the model, which "
      "moves a row's pieces at no cost beyond their bytes, is 12-36% fast from 128 B to 2 KB apart. "
      "With the H100's bank turn to another unit on (h100-counters' sparse rows) it is within 5% from "
      "64 to 256 B apart.";
  for (const char* n : {"stridedRead lg=27;bs=256;stride=32 time_ns", "stridedRead lg=28;bs=256;stride=64 time_ns",
                        "stridedRead lg=29;bs=256;stride=128 time_ns", "stridedRead lg=30;bs=256;stride=256 time_ns",
                        "stridedRead lg=30;bs=256;stride=512 time_ns"})
    gaps["h200-counters"].push_back({n, sparse_h200});
  return gaps;
}

}  // namespace

bool KnownGap::matches(const std::string& row) const {
  // The text between stars appears in order; the first piece starts the row, the last ends it.
  std::vector<std::string> pieces(1);
  for (char c : quantity) {
    if (c == '*') pieces.emplace_back();
    else pieces.back().push_back(c);
  }
  if (pieces.size() == 1) return row == quantity;
  const std::string &head = pieces.front(), &tail = pieces.back();
  if (row.size() < head.size() + tail.size() || row.compare(0, head.size(), head) != 0 ||
      row.compare(row.size() - tail.size(), tail.size(), tail) != 0)
    return false;
  std::size_t at = head.size();
  const std::size_t limit = row.size() - tail.size();
  for (std::size_t k = 1; k + 1 < pieces.size(); ++k) {
    at = row.find(pieces[k], at);
    if (at == std::string::npos || at + pieces[k].size() > limit) return false;
    at += pieces[k].size();
  }
  return true;
}

const std::vector<KnownGap>& known_gaps(const std::string& table) {
  static const std::map<std::string, std::vector<KnownGap>> gaps = build();
  static const std::vector<KnownGap> none;
  const auto it = gaps.find(table);
  return it == gaps.end() ? none : it->second;
}

const KnownGap* known_gap(const std::string& table, const std::string& quantity) {
  for (const KnownGap& g : known_gaps(table))
    if (g.matches(quantity)) return &g;
  return nullptr;
}

}  // namespace warpsim::analysis
