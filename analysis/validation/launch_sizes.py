#!/usr/bin/env python3
"""How a cold launch's time grows with n on the H200, against hopper-h200 with the DRAM model's
read side off (as the preset is) and on (docs/model.md, "The read side").

    analysis/validation/launch_sizes.py [--warpsim BIN]

h200/sizes.csv and sizes_repeat.csv (tools/gpu-probes/calibrate.cu's sizes family, measured twice
in one session under ncu, --cache-control all): readOffset at offset 0 and stridedRead at stride 16
for n = 2^16 to 2^25. Prints `kernel lg measured_ns off_ns on_ns` a row, measured the mean of the
two runs and each simulation as `warpsim run --ncu`; the differences are the model's less the GPU's.
"""
import argparse
import os
import sys

import dram_units
import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
# The read side on: what docs/model.md measured the tables with (write_batch as arch derive fits it).
READ_SIDE_ON = ["dram.refresh_holds_bus=false", "dram.unit_turn_ps=750", "dram.write_batch=17"]


def measured():
    """(kernel, lg, kernel parameters, mean ns, the two runs' ns) a row."""
    first = measured_csv.rows(os.path.join(DATA, "sizes.csv"))
    second = measured_csv.rows(os.path.join(DATA, "sizes_repeat.csv"))
    if [(r["kernel"], r["params"]) for r in first] != [(r["kernel"], r["params"]) for r in second]:
        sys.exit("launch_sizes.py: sizes.csv and sizes_repeat.csv measured different launches")
    rows = []
    for a, b in zip(first, second):
        params = dram_units.kernel_params(a["params"])
        times = (float(a["gpu__time_duration.sum"]), float(b["gpu__time_duration.sum"]))
        rows.append((a["kernel"], int(params["n"]).bit_length() - 1, params, sum(times) / 2, times))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpsim", default=os.environ.get("WARPSIM_BINARY", "warpsim"))
    args = parser.parse_args()
    for kernel, lg, params, mean, _ in measured():
        off = dram_units.simulated_ns(args.warpsim, "hopper-h200", kernel, params, [])
        on = dram_units.simulated_ns(args.warpsim, "hopper-h200", kernel, params, READ_SIDE_ON)
        print(f"{kernel} {lg} {mean:.0f} {off:.0f} ({off - mean:+.0f}) {on:.0f} ({on - mean:+.0f})")


if __name__ == "__main__":
    main()
