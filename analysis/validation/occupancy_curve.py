#!/usr/bin/env python3
"""How a DRAM-bound copy runs as fewer warps are in flight, on the H200 and in the model:
h200/occupancy_curve.csv (tools/gpu-probes/occupancy_curve.cu under ncu, and its event times) and
h200/store_acks_curve.csv.xz (store_acks.cu curve: every warp of every block that ran on SM 0).

    analysis/validation/occupancy_curve.py [--warpsim BINARY [--set KEY=VALUE ...]]

readOffset at n = 2^26 in 512-thread blocks with room for K = 1..4 blocks an SM (16-64 warps).
Prints one line per K: `K time_us occupancy dram_pct life span gap`: ncu's time, achieved
occupancy and dram__throughput, then from SM 0's records the medians of a warp's life (entry to
its store), a block's span (its first warp's entry to its last warp's store) and a slot's gap (a
block's end to the start of the block that takes its place), in cycles, as block_slots.py
summarises them. With --warpsim, a second
line per K, led by `model`, gives the same from `BINARY run --kernel readOffset -p n=67108864
--arch hopper-h200 --set sm.max_blocks=K --ncu --timeline` (its timeline read the same way, over
SM 0's blocks; the model's warps end at their EXIT); `--set` adds preset settings to those runs.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import block_slots
import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
KS = (1, 2, 3, 4)


def on_sm0(path, case, k):
    """block_slots' medians (life, span, gap) of SM 0's blocks in `path`, K blocks resident."""
    records = [r for r in block_slots.read_records(path, case) if r[2] == 0]
    s = block_slots.summarise(records, k, first_last=False, every=1) if records else None
    if s is None or "gap_median" not in s:
        sys.exit(f"{path}: no blocks of SM 0" + (f" in case {case}" if case else ""))
    return s["life_median"], s["span_median"], s["gap_median"]


def gpu_rows():
    ncu = {row["case"]: row for row in measured_csv.rows(os.path.join(DATA, "occupancy_curve.csv"))}
    out = []
    for k in KS:
        row = ncu.get(f"readOffset_k{k}")
        if row is None:
            sys.exit(f"{DATA}/occupancy_curve.csv: no case readOffset_k{k}")
        out.append((k, float(row["gpu__time_duration.sum"]) / 1e3,
                    float(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100,
                    float(row["dram__throughput.avg.pct_of_peak_sustained_elapsed"]))
                   + on_sm0(os.path.join(DATA, "store_acks_curve.csv.xz"), f"readOffset_k{k}_sm0", k))
    return out


def run_readoffset(binary, timeline, blocks_per_sm, n=1 << 26, sms=None, settings=()):
    """`binary run`'s --json result for readOffset in 512-thread blocks on hopper-h200 in ncu's mode,
    with room for `blocks_per_sm` blocks an SM (on `sms` SMs where given; `settings`: further
    `--set KEY=VALUE`s), its timeline written to `timeline`."""
    command = [binary, "run", "--kernel", "readOffset", "-p", f"n={n}", "-p", "block=512", "--arch", "hopper-h200",
               "--set", f"sm.max_blocks={blocks_per_sm}", "--ncu", "--json", "--timeline", timeline]
    if sms is not None:
        command += ["--set", f"gpu.sms={sms}"]
    for setting in settings:
        command += ["--set", setting]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def add_set_option(parser):
    """`--set KEY=VALUE` (repeatable): preset settings for the model's runs (run_readoffset's)."""
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a preset setting for the model's runs (repeatable)")


def model_rows(binary, settings=()):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in KS:
            timeline = os.path.join(tmp, f"k{k}.csv")
            result = run_readoffset(binary, timeline, k, settings=settings)
            out.append((k, result["time_ms"] * 1e3, result["metrics"]["achieved_occupancy"],
                        100 * result["metrics"]["utilization"]["dram"]) + on_sm0(timeline, None, k))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", help="a warpsim binary: print the model's rows too")
    add_set_option(ap)
    a = ap.parse_args()
    model = model_rows(a.warpsim, a.set) if a.warpsim else []
    for k, row in enumerate(gpu_rows()):
        print("{} {:.1f} {:.3f} {:.1f} {:.0f} {:.0f} {:.0f}".format(*row))
        if model:
            print("model {} {:.1f} {:.3f} {:.1f} {:.0f} {:.0f} {:.0f}".format(*model[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
