#!/usr/bin/env python3
"""When a line's DRAM access waits, and how that lines up from line to line: the H200's
h200/refresh_phases_*.csv.xz (tools/gpu-probes/refresh_phases.cu).

    analysis/validation/refresh_phases.py

One thread discards a line from L2 and loads it again, over and over; a load that waits shows
as a long one (more than the line's median + 200 cycles). The file `together8` samples lines
eight at a time in turn, `one` each line alone for 2,047 samples (and so in step with the waits:
the same wait every period). Printed, one `name value` a line:
- clock_ghz: the SM clock over the run (clock64 against %globaltimer);
- period_ns: the period at which each group of eight lines' waits line up best (folded at
  0.25 ns steps from 1,900 to 1,960 ns), the median over the 32 groups, and its 10th and 90th
  percentiles;
- wait_share: the share of loads that waited, in lines sampled in turn (together8);
- extra_p10/p50/p90: how much longer they took than their line's median, in cycles; a wait
  that ends when a window ends takes 0 to the window's length, so window_ns = extra_p90 / 0.9;
- every_period_share: in `one`, the median line's share of waits, against one sample a period
  (sample time / period);
- groups N..: for the pairs of lines sampled together whose waits line up (each line's waits'
  mean vector at the period longer than 0.2), how strongly their phase differences gather at
  multiples of 1/N of the period, N = 1 to 8 (the mean of cos(2 pi N x difference)): near 1 at N
  (and its multiples) if the lines' windows came in N evenly spread groups, as hopper-h200's
  six refresh groups, near 0 at every N if each channel kept a phase of its own (within
  1/sqrt(pairs)); then the number of pairs;
- phase_sd: how far a line's phase is known, as a share of the period: the spread of the
  difference between the phases of each such line's first and second halves of waits, halved
  (a half's error is sqrt(2) a whole's, a difference of two sqrt(2) a half's);
- groups_expected N..: what `groups` would be, N = 1 to 8, if the windows came in N evenly
  spread groups and each phase were off by phase_sd (a pair's difference by sqrt(2) that):
  exp(-(2 pi N sqrt(2) phase_sd)^2 / 2). Where it is well above 1/sqrt(pairs) and `groups` is
  not, the lines are not in N groups.
"""
import cmath
import csv
import io
import lzma
import math
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
THRESHOLD = 200  # cycles over the line's median: a load that waited
GROUP = 8


def load(name):
    """({line: [(start_ns, latency_cycles)]} without each line's first sample, clock in GHz)."""
    text, spans = [], None
    with lzma.open(os.path.join(DATA, name), "rt") as f:
        for line in f:
            if line.startswith("# spans:"):
                words = line.split()
                spans = (int(words[3]), int(words[6]))
            if not line.startswith("#"):
                text.append(line)
    ghz = spans[0] / spans[1]
    rows = defaultdict(list)
    for r in csv.DictReader(io.StringIO("".join(text))):
        if r["sample"] != "0":  # the page walk of the line's first load
            rows[int(r["line"])].append((int(r["start_cycle"]) / ghz, int(r["latency"])))
    return rows, ghz


def waits(rows):
    """{line: start times of its loads that waited}, {line: its median latency}."""
    medians = {k: statistics.median(lat for _, lat in v) for k, v in rows.items()}
    return {k: [t for t, lat in v if lat > medians[k] + THRESHOLD] for k, v in rows.items()}, medians


def mean_vector(times, period):
    if len(times) < 5:
        return 0
    return sum(cmath.exp(2j * math.pi * t / period) for t in times) / len(times)


def percentile(values, q):
    ordered = sorted(values)
    return ordered[int(len(ordered) * q)]


def main():
    rows, ghz = load("refresh_phases_together8.csv.xz")
    waited, medians = waits(rows)
    print(f"clock_ghz {ghz:.4f}")
    periods, differences = [], []
    candidates = [1900 + 0.25 * i for i in range(240)]
    for first in range(0, len(rows), GROUP):
        lines = range(first, first + GROUP)
        period = max(candidates, key=lambda p: sum(abs(mean_vector(waited[k], p)) ** 2 * len(waited[k]) for k in lines))
        periods.append(period)
        vectors = {k: mean_vector(waited[k], period) for k in lines}
        for i in lines:
            for j in lines:
                if i < j and abs(vectors[i]) > 0.2 and abs(vectors[j]) > 0.2:
                    differences.append((cmath.phase(vectors[j]) - cmath.phase(vectors[i])) / (2 * math.pi))
    print(f"period_ns {statistics.median(periods):g} {percentile(periods, 0.1):g} {percentile(periods, 0.9):g}")
    loads = sum(len(v) for v in rows.values())
    print(f"wait_share {sum(len(v) for v in waited.values()) / loads:.3f}")
    extra = [lat - medians[k] for k, v in rows.items() for _, lat in v if lat > medians[k] + THRESHOLD]
    p90 = percentile(extra, 0.9)
    print(f"extra_p10/p50/p90 {percentile(extra, 0.1):g} {percentile(extra, 0.5):g} {p90:g}")
    print(f"window_ns {p90 / 0.9 / ghz:.0f}")
    one, _ = load("refresh_phases_one.csv.xz")
    one_waited, _ = waits(one)
    shares = [len(one_waited[k]) / len(v) for k, v in one.items()]
    steps = [(v[-1][0] - v[0][0]) / (len(v) - 1) for v in one.values()]
    period = statistics.median(periods)
    print(f"every_period_share {statistics.median(shares):.3f} {statistics.median(steps) / period:.3f}")
    strengths = [statistics.mean(math.cos(2 * math.pi * n * d) for d in differences) for n in range(1, 9)]
    print("groups " + " ".join(f"{v:.2f}" for v in strengths) + f" of {len(differences)}")
    halves = []
    for k, times in waited.items():
        if abs(mean_vector(times, period)) <= 0.2:
            continue
        first, second = mean_vector(times[: len(times) // 2], period), mean_vector(times[len(times) // 2 :], period)
        if first != 0 and second != 0:
            halves.append(((cmath.phase(second) - cmath.phase(first)) / (2 * math.pi) + 0.5) % 1 - 0.5)
    sd = statistics.pstdev(halves) / 2
    print(f"phase_sd {sd:.3f}")
    expected = [math.exp(-((2 * math.pi * n * math.sqrt(2) * sd) ** 2) / 2) for n in range(1, 9)]
    print("groups_expected " + " ".join(f"{v:.2f}" for v in expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
