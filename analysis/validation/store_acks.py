#!/usr/bin/env python3
"""What Nsight Compute's sm__warps_active counts of a warp, from h100-measured/store_acks*
(tools/gpu-probes/store_acks.cu): per-warp records of every 64th block of four copies at
n = 2^26, without and with a fence after the last store, beside the same launches under ncu.

    store_acks.py [DATA_DIR]

For each case, the occupancy the records give (warp-cycles over ncu's sm__cycles_active.avg x
132 SMs x 64 warp slots, the records' sums scaled by 64) counting each warp

    own     from its start to its last record (after its store issued; after the fence where
            there is one: the warp exits then)
    block   from its start to its block's last warp's last record (models/core/sm.hpp's rule
            before this measurement: until the block's last warp exits)

beside ncu's achieved occupancy; what ncu counts beyond the records, in cycles a warp (its
warp-cycles less the records', over smsp__warps_launched); and the median wait for a store's
acknowledgement (the fence's cases). From the records of every block that ran on SM 0 (cases
..._sm0), the slot's turnaround: the k-th block to start on the SM follows the (k - B)-th to
complete (B blocks fit at once; the last record of its last warp), and the median of that gap. Prints one line per case;
tests/analysis/test_store_acks.py holds the conclusions to it.
"""
import collections
import lzma
import os
import statistics
import sys

import measured_csv

EVERY = 64  # store_acks.cu's kBlockEvery
SMS, SLOTS = 132, 64
ORDER = ["readOffset_bs512", "copy_bs256", "copy_bs1024", "persist_nowindow"]


def records(path):
    """{case: [(block, t_start, t_end, t_acked)]} of the per-warp records."""
    cases = collections.defaultdict(list)
    with lzma.open(path, "rt") as f:
        header = None
        for line in f:
            if line.startswith("#"):
                continue
            cells = line.rstrip("\n").split(",")
            if header is None:
                header = {name: k for k, name in enumerate(cells)}
                continue
            cases[cells[0]].append(tuple(int(cells[header[c]]) for c in ("block", "t_start", "t_end", "t_acked")))
    return cases


def slot_gaps(cases, name):
    """Median cycles from a block's completion on SM 0 to the start of the block that takes its place."""
    by_block = collections.defaultdict(list)
    for r in cases[name + "_sm0"]:
        by_block[r[0]].append(r)
    resident = SLOTS // max(len(rs) for rs in by_block.values())
    starts = sorted(min(r[1] for r in rs) for rs in by_block.values())
    ends = sorted(max(r[3] for r in rs) for rs in by_block.values())
    return statistics.median(starts[k] - ends[k - resident] for k in range(resident, len(starts)))


def occupancies(data_dir):
    cases = records(os.path.join(data_dir, "store_acks.csv.xz"))
    # ncu's rows in launch order: each case is launched twice, the second recorded.
    ncu = measured_csv.rows(os.path.join(data_dir, "store_acks_ncu.csv"))
    names = ORDER + [c + "_fence" for c in ORDER]
    if len(ncu) != 2 * len(names):
        raise SystemExit(f"store_acks_ncu.csv: {len(ncu)} launches, expected {2 * len(names)}")
    out = {}
    for k, name in enumerate(names):
        row, recs = ncu[2 * k + 1], cases[name]
        slot_cycles = float(row["sm__cycles_active.avg"]) * SMS * SLOTS
        by_block = collections.defaultdict(list)
        for r in recs:
            by_block[r[0]].append(r)
        own = sum(acked - start for _, start, _, acked in recs) * EVERY / slot_cycles
        block_cycles = sum(max(r[3] for r in rs) * len(rs) - sum(r[1] for r in rs) for rs in by_block.values())
        block = block_cycles * EVERY / slot_cycles
        out[name] = {
            "ncu": float(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100,
            "own": own,
            "extra": (float(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100 - own) * slot_cycles /
                     float(row["smsp__warps_launched.sum"]),
            "block": block,
            "ack_wait": statistics.median(acked - end for _, _, end, acked in recs),
            "time_us": float(row["gpu__time_duration.sum"]) / 1e3,
            "slot_gap": slot_gaps(cases, name),
        }
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "data", "h100-measured")
    print(f"{'case':24} {'ncu':>6} {'own':>6} {'block':>6} {'extra':>6} {'ack wait':>9} {'slot gap':>9} {'time us':>8}")
    for name, o in occupancies(data_dir).items():
        print(f"{name:24} {o['ncu']:6.3f} {o['own']:6.3f} {o['block']:6.3f} {o['extra']:6.0f} {o['ack_wait']:9.0f}"
              f" {o['slot_gap']:9.0f} {o['time_us']:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
