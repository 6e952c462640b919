#!/usr/bin/env python3
"""How a DRAM-bound copy runs as fewer warps are in flight, on the H200 and in the model:
h200/occupancy_curve.csv (tools/gpu-probes/occupancy_curve.cu under ncu, and its event times) and
h200/store_acks_curve.csv.xz (store_acks.cu curve: every warp of every block that ran on SM 0).

    analysis/validation/occupancy_curve.py [--warpsim BINARY]

readOffset at n = 2^26 in 512-thread blocks with room for K = 1..4 blocks an SM (16-64 warps).
Prints one line per K: `K time_us occupancy dram_pct life span gap`: ncu's time, achieved
occupancy and dram__throughput, then from SM 0's records the medians of a warp's life (entry to
its store), a block's span (its first warp's entry to its last warp's store) and a slot's gap (a
block's end to the start of the block that takes its place), in cycles. With --warpsim, a second
line per K, led by `model`, gives the same from `BINARY run --kernel readOffset -p n=67108864
--arch hopper-h200 --set sm.max_blocks=K --ncu --timeline` (its timeline read the same way, over
SM 0's blocks; the model's warps end at their EXIT).
"""
import argparse
import collections
import csv
import json
import lzma
import os
import statistics
import subprocess
import sys
import tempfile

import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
KS = (1, 2, 3, 4)


def spans_and_gaps(blocks, k):
    """Medians (life, span, gap) of {block: [(t_start, t_end)]} on one SM holding k blocks at once."""
    life = [end - start for warps in blocks.values() for start, end in warps]
    starts = sorted(min(s for s, _ in warps) for warps in blocks.values())
    ends = sorted(max(e for _, e in warps) for warps in blocks.values())
    spans = [max(e for _, e in warps) - min(s for s, _ in warps) for warps in blocks.values()]
    gaps = [starts[i] - ends[i - k] for i in range(k, len(starts))]
    return statistics.median(life), statistics.median(spans), statistics.median(gaps)


def gpu_rows():
    ncu = {row["case"]: row for row in measured_csv.rows(os.path.join(DATA, "occupancy_curve.csv"))}
    blocks = collections.defaultdict(lambda: collections.defaultdict(list))
    path = os.path.join(DATA, "store_acks_curve.csv.xz")
    with lzma.open(path, "rt") as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        blocks[row["case"]][int(row["block"])].append((int(row["t_start"]), int(row["t_end"])))
    out = []
    for k in KS:
        row = ncu.get(f"readOffset_k{k}")
        sm0 = blocks.get(f"readOffset_k{k}_sm0")
        if row is None or not sm0:
            sys.exit(f"{DATA}: no case readOffset_k{k} in occupancy_curve.csv or store_acks_curve.csv.xz")
        out.append((k, float(row["gpu__time_duration.sum"]) / 1e3,
                    float(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100,
                    float(row["dram__throughput.avg.pct_of_peak_sustained_elapsed"])) + spans_and_gaps(sm0, k))
    return out


def model_rows(binary):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in KS:
            timeline = os.path.join(tmp, f"k{k}.csv")
            run = subprocess.run([binary, "run", "--kernel", "readOffset", "-p", "n=67108864", "-p", "block=512", "--arch",
                                  "hopper-h200", "--set", f"sm.max_blocks={k}", "--ncu", "--json", "--timeline",
                                  timeline], capture_output=True, text=True, check=True)
            result = json.loads(run.stdout)
            blocks = collections.defaultdict(list)
            for row in measured_csv.rows(timeline):
                if row["smid"] == "0":
                    blocks[int(row["block"])].append((int(row["t_start"]), int(row["t_end"])))
            out.append((k, result["time_ms"] * 1e3, result["metrics"]["achieved_occupancy"],
                        100 * result["metrics"]["utilization"]["dram"]) + spans_and_gaps(blocks, k))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", help="a warpsim binary: print the model's rows too")
    a = ap.parse_args()
    model = model_rows(a.warpsim) if a.warpsim else []
    for k, row in enumerate(gpu_rows()):
        print("{} {:.1f} {:.3f} {:.1f} {:.0f} {:.0f} {:.0f}".format(*row))
        if model:
            print("model {} {:.1f} {:.3f} {:.1f} {:.0f} {:.0f} {:.0f}".format(*model[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
