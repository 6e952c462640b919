#!/usr/bin/env python3
"""Which L2 half is home to each of consecutive lines, and what an unloaded DRAM miss costs by
home: h200/l2_partition_lines.csv.xz (tools/gpu-probes/l2_partitions.cu lines).

    analysis/validation/partition_lines.py [FILE]

The probe chases 2 x 16,384 consecutive 128-byte lines from SM 0 with L2 cold, then again from an
SM of the other half after SM 0's chase left a copy of every line in its own half: there a line
homed in SM 0's half is a far hit (over 360 cycles), one homed in its own half a near hit. Prints
"key value" lines: far_share (lines homed in SM 0's half), same_half_D (the fraction of lines D
apart homed in the same half), aligned_64_far_min/max (the share homed in SM 0's half over each aligned 64 lines, 8 KB), and
cold_near_pPP / cold_far_pPP (SM 0's cold miss by the line's home, percentiles).
"""
import lzma
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "data", "h200", "l2_partition_lines.csv.xz")
FAR_HIT_CYCLES = 360  # between a near hit (~270 cycles) and a far one (~450), as the probe splits them


def read(path):
    """{experiment: {line: cycles}} without each run's first step (its clock reads the chase's start,
    not a load: 20 cycles)."""
    latency = defaultdict(dict)
    with lzma.open(path, "rt") if path.endswith(".xz") else open(path) as f:
        for raw in f:
            if not raw.startswith("line,"):
                continue
            try:
                _, what, _sm, line, cycles = raw.strip().split(",")
                latency[what][int(line)] = int(cycles)
            except ValueError:
                sys.exit(f"{path}: malformed row: {raw.strip()}")
    for what in ("cold", "other_far_half", "other_same_half"):
        if not latency[what]:
            sys.exit(f"{path}: no '{what}' rows")
    for chase in latency.values():
        starts = [line for line in chase if line - 1 not in chase]
        for line in starts:
            del chase[line]
    return latency


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def summary(latency):
    far = {line: cycles > FAR_HIT_CYCLES for line, cycles in latency["other_far_half"].items()}
    out = {"far_share": sum(far.values()) / len(far)}
    for d in (1, 2, 4, 8, 16, 32, 64):
        pairs = [(far[k], far[k + d]) for k in far if k + d in far]
        out[f"same_half_{d}"] = sum(a == b for a, b in pairs) / len(pairs)
    groups = defaultdict(list)
    for line, f in far.items():
        groups[line // 64].append(f)
    shares = [sum(g) / len(g) for g in groups.values() if len(g) == 64]
    out["aligned_64_far_min"], out["aligned_64_far_max"] = min(shares), max(shares)
    # SM 0's cold misses: "far" above means homed in SM 0's own half (near to it).
    cold = latency["cold"]
    for name, home_near in (("near", True), ("far", False)):
        values = [c for line, c in cold.items() if line in far and far[line] == home_near]
        for p in (10, 25, 50, 75, 90, 99):
            out[f"cold_{name}_p{p}"] = percentile(values, p / 100)
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    for key, value in summary(read(path)).items():
        print(key, f"{value:.3f}" if isinstance(value, float) else value)


if __name__ == "__main__":
    main()
