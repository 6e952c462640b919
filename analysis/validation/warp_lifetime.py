#!/usr/bin/env python3
"""How many cycles Nsight Compute counts a warp, from h100-measured/warp_lifetime*
(tools/gpu-probes/warp_lifetime.cu): fmaChain launches under ncu with --cache-control all
(warp_lifetime.csv, which h100-counters checks row by row) and none (warp_lifetime_none.csv),
and the clock64 records of a first wave's warps (warp_lifetime_records.csv.xz).

    warp_lifetime.py [DATA_DIR]

Per launch: the cycles ncu counts a warp (sm__warps_active.avg.per_cycle_active x
sm__cycles_active.avg x 132 SMs over smsp__warps_launched.sum) under each cache control. Then,
for the one-wave launches of 16 FFMAs, with the store and without (fmaNoStore), the median cycles
between a warp's first and last clock64 read (fmaRecorded: fmaNoStore with the reads). Prints one
line per launch and one per recorded case; tests/analysis/test_warp_lifetime.py holds the
conclusions to it.
"""
import os
import statistics
import sys

import measured_csv

SMS = 132


def launches(path):
    """[(case, params, cycles ncu counts a warp, gpu__time_duration in ns)] in launch order."""
    rows = measured_csv.rows(path)
    out = []
    for r in rows:
        warps = float(r["smsp__warps_launched.sum"])
        counted = float(r["sm__warps_active.avg.per_cycle_active"]) * float(r["sm__cycles_active.avg"]) * SMS
        out.append((r["case"], r["params"], counted / warps, int(r["gpu__time_duration.sum"])))
    return out


def windows(path):
    """{case: median cycles from a warp's first clock64 read to its last} of the records."""
    spans = {}
    for r in measured_csv.rows(path):
        spans.setdefault(r["case"], []).append(int(r["t_exit"]) - int(r["t_entry"]))
    return {case: statistics.median(s) for case, s in spans.items()}


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data", "h100-measured")
    cold = launches(os.path.join(data, "warp_lifetime.csv"))
    warm = launches(os.path.join(data, "warp_lifetime_none.csv"))
    print(f"{'case':<22} {'params':<32} {'all':>8} {'none':>8}")
    for (case, params, a, _), (_, _, n, _) in zip(cold, warm):
        print(f"{case:<22} {params:<32} {a:8.1f} {n:8.1f}")
    for case, median in sorted(windows(os.path.join(data, "warp_lifetime_records.csv.xz")).items()):
        print(f"{case}: first to last clock64 read, median {median:.0f} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
