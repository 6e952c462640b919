#!/usr/bin/env python3
"""What Nsight Compute's sm__warps_active counts of a warp beyond its own first and last
instruction, from h200/warp_window* (tools/gpu-probes/warp_window.cu): a copy whose warps spin
0, 2,000 or 8,000 cycles after their store, and warps that spin with no memory access at all,
n = 2^24 in 512-thread blocks, every warp of every 16th block recorded (its first and last clock
read), each case launched twice and the second taken, beside the same launches under ncu.

    warp_window.py [DATA_DIR]

Prints one line per case: `CASE ncu_per_warp records_mean extra extra_pct occupancy`: ncu's
warp-cycles (sm__warps_active.avg.per_cycle_active x sm__cycles_active.avg x the SMs) over
smsp__warps_launched, the records' mean window, what ncu counts beyond it in cycles a warp and as
a share of the window, and ncu's achieved occupancy. If the extra stays the same as the spin
lengthens the warps, ncu counts a constant around each warp (its launch and exit, the few
instructions outside the records), not a share of its life.
"""
import collections
import csv
import lzma
import os
import statistics
import sys

import measured_csv

CASES = ["copy_spin0", "copy_spin2000", "copy_spin8000", "alone_spin2000", "alone_spin8000"]


def windows(path):
    """{case: [t_last - t_first]} of the per-warp records."""
    out = collections.defaultdict(list)
    with lzma.open(path, "rt") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            out[row["case"]].append(int(row["t_last"]) - int(row["t_first"]))
    return out


def cases(data_dir):
    records = windows(os.path.join(data_dir, "warp_window.csv.xz"))
    ncu_path = os.path.join(data_dir, "warp_window_ncu.csv")
    ncu = measured_csv.rows(ncu_path)
    if len(ncu) != 2 * len(CASES):
        sys.exit(f"{ncu_path}: {len(ncu)} launches, expected {2 * len(CASES)} (each case twice)")
    sms = int(measured_csv.rows(os.path.join(data_dir, "device.csv"))[0]["sms"])
    out = {}
    for k, name in enumerate(CASES):
        if not records.get(name):
            sys.exit(f"{data_dir}/warp_window.csv.xz: no records of case {name}")
        row = ncu[2 * k + 1]
        value = lambda key: float(row[key].replace(",", ""))
        per_warp = (value("sm__warps_active.avg.per_cycle_active") * value("sm__cycles_active.avg") * sms /
                    value("smsp__warps_launched.sum"))
        mean = statistics.mean(records[name])
        out[name] = {"ncu": per_warp, "records": mean, "extra": per_warp - mean,
                     "occupancy": value("sm__warps_active.avg.pct_of_peak_sustained_active") / 100}
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "data", "h200")
    for name, c in cases(data_dir).items():
        print(f"{name} {c['ncu']:.1f} {c['records']:.1f} {c['extra']:.1f} {100 * c['extra'] / c['records']:.1f} "
              f"{c['occupancy']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
