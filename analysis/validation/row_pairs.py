#!/usr/bin/env python3
"""Whether a line comes sooner from a DRAM row a read opened just before: the GPU and the model.

    analysis/validation/row_pairs.py WARPSIM [--gpu h100|h200] [--arch PRESET]

The H100's: h100-measured/row_pairs_near.csv.xz (tools/gpu-probes/row_pairs.cu near): in 4,096
2 MB pages, a cold line A at the page's start, then, once A's data is back, a cold line B 64 or
128 bytes on (A's row, whatever the mapping), against B read alone; the minimum of seven passes
each (the H200's: h200/row_pairs_near.csv.xz, the same probe). Printed: the median and the 10th
and 90th percentiles of B's latency after A less B's alone, in cycles. The model's: traces of
one warp reading 400 such pairs, each load waiting for the one before (its address register is
the last one's data), with B 128 bytes after A ("near")
or 1 MB and 128 bytes after it ("far": another row), run with `--ncu` (caches flushed first) and
refresh off (--set dram.refresh_ns=0), on the GPU's preset unless --arch names another;
(near - far) / 400 is what A's open row saves B.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

import measured_csv
from one_warp_trace import write_one_warp_trace

HERE = os.path.dirname(os.path.abspath(__file__))
# Each GPU's measurements and its preset.
GPUS = {"h100": (os.path.join(HERE, "data", "h100-measured"), "hopper-h100"),
        "h200": (os.path.join(HERE, "data", "h200"), "hopper-h200")}
PAIRS = 400
PAGE = 2 << 20


def differences(name, gpu="h100"):
    """{(page, d_bytes): the minimum over the passes of B's latency after A, less the same of B
    alone}, from the GPU's file NAME."""
    latencies = defaultdict(lambda: defaultdict(list))
    for r in measured_csv.rows(os.path.join(GPUS[gpu][0], name)):
        latencies[(int(r["page"]), int(r["d_bytes"]))][r["kind"]].append(int(r["lat_b"]))
    return {k: min(v["pair"]) - min(v["alone"]) for k, v in latencies.items()}


def percentiles(values):
    """(p10, median, p90)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 10], statistics.median(ordered), ordered[9 * len(ordered) // 10]


def measured(gpu):
    """(p10, median, p90) of B's latency after A less B's alone, over the near file's 4,096 pairs."""
    return percentiles(differences("row_pairs_near.csv.xz", gpu).values())


def write_trace(directory, distance):
    lines = []
    for i in range(PAIRS):
        a = 0x7F0000000000 + i * PAGE
        # Every lane the same word: one line a load, as the probe's one thread.
        lines.append(f"0000 ffffffff 1 R2 LDG.E 1 R2 4 1 0x{a:x} 0 0 ")
        lines.append(f"0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x{a + distance:x} 0 0 ")
    lines.append("0020 ffffffff 0 EXIT 0 0 0 ")
    write_one_warp_trace(directory, "row_pairs", lines)


def modelled(warpsim, arch, distance):
    with tempfile.TemporaryDirectory() as directory:
        write_trace(directory, distance)
        command = [warpsim, "run", "--arch", arch, "--trace", directory, "--ncu", "--json",
                   "--set", "dram.refresh_ns=0"]
        result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return result["kernels"][0]["cycles"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warpsim")
    parser.add_argument("--gpu", choices=sorted(GPUS), default="h100")
    parser.add_argument("--arch", help="the preset (default: the GPU's)")
    args = parser.parse_args()
    arch = args.arch or GPUS[args.gpu][1]
    p10, median, p90 = measured(args.gpu)
    near = modelled(args.warpsim, arch, 128)
    far = modelled(args.warpsim, arch, PAGE // 2 + 128)
    gpu = args.gpu.upper()
    print(f"{gpu}_p10 {gpu}_median {gpu}_p90 model_near_minus_far")
    print(f"{p10} {median:g} {p90} {(near - far) / PAIRS:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
