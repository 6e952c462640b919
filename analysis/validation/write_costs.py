#!/usr/bin/env python3
"""What a byte written to DRAM costs, in bytes read, as stridedRead's share of writes grows:
h100-measured/stride_full.csv and h200/stride.csv (tools/gpu-probes/calibrate stride, ncu).

    analysis/validation/write_costs.py

stridedRead at n = 2^26 reads its 256 MiB whole at every stride and writes one element in
`stride`, so its DRAM reads stay the same and only its writes change. Against stride 16 (6% of
DRAM's bytes written), the time each further byte written adds is counted in bytes moved at
stride 16's rate ((read + written) / ncu's gpu__time_duration):

    cost(s) = (time(s) - time(16)) * rate(16) / (written(s) - written(16))

A cost under 1 is a write cheaper than a read (the bus had time the reads left); a model that
charges every write alike gives the same cost at every stride. Prints one line per GPU and stride:
`gpu stride write_share time_ns cost`.
"""
import os
import sys

import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SOURCES = (("h100", os.path.join("h100-measured", "stride_full.csv")), ("h200", os.path.join("h200", "stride.csv")))
BASE_STRIDE = 16


def stride_rows(path):
    """stridedRead's rows at n = 2^26, by stride: (time ns, DRAM bytes read, DRAM bytes written)."""
    out = {}
    for line, row in enumerate(measured_csv.rows(path), start=1):
        params = dict(kv.split("=") for kv in row["params"].split(";"))
        if params.get("lg") != "26":
            continue
        try:
            out[int(params["stride"])] = tuple(float(row[k].replace(",", "")) for k in (
                "gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"))
        except (KeyError, ValueError) as e:
            sys.exit(f"{path}: data row {line}: {e}")
    if BASE_STRIDE not in out:
        sys.exit(f"{path}: no stridedRead row at lg=26, stride={BASE_STRIDE}")
    return out


def costs(rows):
    """(stride, write share, time, cost) for each stride that writes more than the base stride."""
    t0, r0, w0 = rows[BASE_STRIDE]
    rate = (r0 + w0) / t0
    out = []
    for stride in sorted(rows):
        t, r, w = rows[stride]
        if w > w0:
            out.append((stride, w / (r + w), t, (t - t0) * rate / (w - w0)))
    return out


def main():
    for gpu, name in SOURCES:
        for stride, share, t, cost in costs(stride_rows(os.path.join(DATA, name))):
            print(f"{gpu} {stride} {share:.3f} {t:.0f} {cost:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
