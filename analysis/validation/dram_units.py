#!/usr/bin/env python3
"""The DRAM-bound stridedRead and copy rows at n >= 2^26, measured against the model, under preset
overrides: how a change to the DRAM model moves the curves it has to meet before the whole tables
are run.

    analysis/validation/dram_units.py [--warpsim BIN] [--start-rows]
                                      [--set-h100 KEY=VALUE ...] [--set-h200 KEY=VALUE ...]

Rows (ncu's gpu__time_duration, each launch alone with cold caches, as `warpsim run --ncu`):
- h100-measured/sparse.csv and h200/sparse.csv: every load one 64-byte DRAM piece, 64 B to 4 KB
  apart (strides 16-1024);
- h100-measured/dram_spacing.csv: pieces 96 B to 3 KB apart at spacings that are not powers of two,
  and strides 3-7 (12-23% of DRAM's bytes written);
- h100-measured/stride_full.csv and h200/stride.csv: strides 1-64 at n = 2^26 (6-48% written);
- offset.csv and h200/offset.csv: the three copies at offsets 0 and 32, n = 2^26 (a third written).

With --start-rows, instead: the rows at n = 2^20 of offset.csv and stride.csv on each GPU, the
ones arch derive's start rule reads (kernel_start_ns moves by the mean of measured less simulated).

Prints `preset file kernel params measured_ns simulated_ns error%` a row, then the mean absolute
error of each file (with --start-rows, also the mean of measured less simulated in ns, a GPU's
rows together). Two simulations at a time; about a minute and a half on two cores.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SOURCES = (
    ("hopper-h100", ("h100-measured/sparse.csv", "h100-measured/dram_spacing.csv", "h100-measured/stride_full.csv",
                     "offset.csv")),
    ("hopper-h200", ("h200/sparse.csv", "h200/stride.csv", "h200/offset.csv")),
)
START_SOURCES = (("hopper-h100", ("offset.csv", "stride.csv")), ("hopper-h200", ("h200/offset.csv", "h200/stride.csv")))


def kernel_params(text):
    """calibrate's `lg=26;bs=256;stride=16` as warpsim's kernel parameters."""
    params = {}
    for item in text.split(";"):
        key, value = item.split("=")
        if key == "lg":
            params["n"] = str(1 << int(value))
        elif key == "bs":
            params["block"] = value
        else:
            params[key] = value
    return params


def wanted(name, params, start_rows):
    n = int(params.get("n", 0))
    if start_rows:
        return n == 1 << 20
    return n >= 1 << 26 and (not name.endswith("offset.csv") or params.get("offset") in ("0", "32"))


def cases(start_rows=False):
    """(preset, file, kernel, params, measured ns) for every DRAM-bound row, or every start-rule row."""
    out = []
    for preset, files in START_SOURCES if start_rows else SOURCES:
        for name in files:
            for row in measured_csv.rows(os.path.join(DATA, name)):
                params = kernel_params(row["params"])
                if wanted(name, params, start_rows):
                    out.append((preset, name, row["kernel"], params, float(row["gpu__time_duration.sum"])))
    return out


def simulated_ns(binary, preset, kernel, params, settings):
    """`warpsim run --ncu` of a library kernel with preset overrides: its time in ns."""
    cmd = [binary, "run", "--arch", preset, "--kernel", kernel, "--ncu", "--json", "-j", "1"]
    for key, value in params.items():
        cmd += ["-p", f"{key}={value}"]
    for setting in settings:
        cmd += ["--set", setting]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {' '.join(cmd)}: {result.stderr.strip()}")
    return json.loads(result.stdout)["time_ms"] * 1e6


def simulate(binary, overrides, case):
    preset, _, kernel, params, _ = case
    return simulated_ns(binary, preset, kernel, params, overrides.get(preset, []))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpsim", default=os.environ.get("WARPSIM_BINARY", "warpsim"))
    parser.add_argument("--start-rows", action="store_true",
                        help="the n = 2^20 rows arch derive's start rule reads")
    parser.add_argument("--set-h100", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--set-h200", nargs="*", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    overrides = {"hopper-h100": args.set_h100, "hopper-h200": args.set_h200}
    todo = cases(args.start_rows)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        simulated = list(pool.map(lambda c: simulate(args.warpsim, overrides, c), todo))
    errors, short = {}, {}
    for (preset, name, kernel, params, measured), sim in zip(todo, simulated):
        shown = ";".join(f"{k}={v}" for k, v in params.items() if k in ("n", "stride", "offset"))
        error = 100 * (sim / measured - 1)
        errors.setdefault((preset, name), []).append(abs(error))
        short.setdefault(preset, []).append(measured - sim)
        print(f"{preset} {name} {kernel} {shown} {measured:.0f} {sim:.0f} {error:+.1f}%")
    for (preset, name), values in errors.items():
        print(f"# {preset} {name}: mean |error| {sum(values) / len(values):.1f}% over {len(values)} rows")
    if args.start_rows:
        for preset, values in short.items():
            mean = sum(values) / len(values)
            print(f"# {preset}: measured less simulated, mean {mean:+.0f} ns over {len(values)} rows")


if __name__ == "__main__":
    main()
