#!/usr/bin/env python3
"""How long warps wait for their loads' data under load, from per-warp records: the H100's
(tools/gpu-probes/persist_timeline.cu, ../shared/calibration/h100/persist_timeline.csv.xz) or the
model's (`warpsim run --timeline FILE`).

    load_waits.py FILE [--case NAME] [--warps LIST]

Each record's t_start, t_first_data and t_second_data (the H100's: clock reads right after the
first and the second load's value is used; the model's: when each of the warp's first two loads
that went to the memory system had its data). Prints "key value" lines: records, and the 10th,
50th, 90th and 99th percentiles of the first wait (first data less start: persistKernel's load of
its hot region) and of the second (second data less first: its streamed load, issued once the
first store is out), in cycles. --warps keeps only those warps of each block (a comma list), to
set the model's every warp beside a probe that recorded some.

The distributions docs/model.md ("How far apart a block's warps finish") quotes come from this
script; tests/analysis/test_load_waits.py holds them to the committed data.
"""
import argparse
import csv
import sys

import measured_csv

QUANTILES = (("p10", 0.10), ("median", 0.50), ("p90", 0.90), ("p99", 0.99))


def read_waits(path, case, warps):
    rows = csv.DictReader(measured_csv.data_lines(path))
    missing = {"warp", "t_start", "t_first_data", "t_second_data"} - set(rows.fieldnames or [])
    if missing:
        sys.exit(f"{path}: not a timeline with load times (missing columns {sorted(missing)})")
    first, second = [], []
    for row in rows:
        if case is not None and row.get("case", case) != case:
            continue
        if warps is not None and int(row["warp"]) not in warps:
            continue
        if not row["t_first_data"]:
            continue  # a warp without a load that left the SM
        start, data1 = int(row["t_start"]), int(row["t_first_data"])
        first.append(data1 - start)
        if row["t_second_data"]:
            second.append(int(row["t_second_data"]) - data1)
    return sorted(first), sorted(second)


def quantile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("--case", help="the probe file's case (its first column)")
    p.add_argument("--warps", help="only these warps of each block, e.g. 0,15")
    a = p.parse_args()
    warps = None if a.warps is None else {int(w) for w in a.warps.split(",")}
    first, second = read_waits(a.file, a.case, warps)
    if not first:
        sys.exit(f"{a.file}: no records with load times" + (f" of case {a.case}" if a.case else ""))
    print(f"records {len(first)}")
    for name, values in (("first_wait", first), ("second_wait", second)):
        if values:
            for q_name, q in QUANTILES:
                print(f"{name}_{q_name} {quantile(values, q)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
