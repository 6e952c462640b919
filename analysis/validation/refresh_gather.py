#!/usr/bin/env python3
"""One warp's gathers of 32 cold lines, on the GPU and in the model, side by side.

    analysis/validation/refresh_gather.py WARPSIM [--gpu h100|h200] [--arch PRESET]

The GPU's: h100-measured/refresh_gather.csv.xz or h200/refresh_gather.csv.xz
(tools/gpu-probes/refresh_gather.cu): per stride (0: one line a step; 256 and 4096 B: lane k
loads the line k x stride bytes on), each step's latency, and the share of steps that waited
for a refresh (more than the stride's median + 110 cycles). The model's: a trace of one warp making 400 such gathers, each of lines no step read
before and each waiting for the one before (its address register is the last one's data), run
on the GPU's preset (unless --arch names another) with `--ncu` (caches flushed first), with the
preset's refresh and with none (--set dram.refresh_ns=0); cycles / 400 is a step, the refresh's
share what it adds. Prints one line per stride.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import measured_csv
from one_warp_trace import write_one_warp_trace

HERE = os.path.dirname(os.path.abspath(__file__))
# Each GPU's measurements and its preset.
GPUS = {"h100": (os.path.join(HERE, "data", "h100-measured", "refresh_gather.csv.xz"), "hopper-h100"),
        "h200": (os.path.join(HERE, "data", "h200", "refresh_gather.csv.xz"), "hopper-h200")}
STEPS = 400


def measured(gpu, stride):
    rows = measured_csv.rows(GPUS[gpu][0])
    latencies = [int(r["latency"]) for r in rows if int(r["stride_bytes"]) == stride and int(r["i"]) > 0]
    median = statistics.median(latencies)
    waited = sum(v > median + 110 for v in latencies) / len(latencies)
    return statistics.mean(latencies), median, waited


def write_trace(directory, stride):
    step = max(32 * stride, 8192)  # as the probe: every step's lines new
    lines = [f"0000 ffffffff 1 R2 LDG.E 1 R2 4 1 0x{0x7f0000000000 + i * step:x} {stride} 0 " for i in range(STEPS)]
    lines.append("0010 ffffffff 0 EXIT 0 0 0 ")
    write_one_warp_trace(directory, "gather", lines)


def modelled(warpsim, arch, directory, refresh):
    command = [warpsim, "run", "--arch", arch, "--trace", directory, "--ncu", "--json"]
    if not refresh:
        command += ["--set", "dram.refresh_ns=0"]
    result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return result["kernels"][0]["cycles"] / STEPS


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warpsim")
    parser.add_argument("--gpu", choices=sorted(GPUS), default="h100")
    parser.add_argument("--arch", help="the preset (default: the GPU's)")
    args = parser.parse_args()
    arch = args.arch or GPUS[args.gpu][1]
    gpu = args.gpu.upper()
    print(f"stride_bytes {gpu}_mean {gpu}_median {gpu}_waited model_step model_step_no_refresh")
    for stride in (0, 256, 4096):
        with tempfile.TemporaryDirectory() as directory:
            write_trace(directory, stride)
            with_refresh = modelled(args.warpsim, arch, directory, True)
            without = modelled(args.warpsim, arch, directory, False)
        mean, median, waited = measured(args.gpu, stride)
        print(f"{stride} {mean:.0f} {median:.0f} {waited:.3f} {with_refresh:.1f} {without:.1f}")


if __name__ == "__main__":
    sys.exit(main())
