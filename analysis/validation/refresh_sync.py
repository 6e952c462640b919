#!/usr/bin/env python3
"""Which lines wait for the same DRAM refresh: the H200's h200/refresh_sync*.csv.xz
(tools/gpu-probes/refresh_sync.cu).

    analysis/validation/refresh_sync.py

In each launch 32 warps of one block (one SM's clock64) each discard a line of their own from L2
and load it again, 320 times; the file keeps the loads that took more than their line's median +
100 cycles. A load that waited (more than the median + 200 cycles, as refresh_phases.py counts)
lies in its line's refresh window. Folded over the period, a line's waits give its window's phase;
two lines that wait for the same refresh have the same phase. For each file, one `name value` a
line:
- period_cycles: the period at which each launch's 32 lines' waits line up best (1-cycle steps
  over 3,700-3,950, then 0.05 around the best), the median over the launches, and its 10th and
  90th percentiles; clock_ghz (clock64 against %globaltimer) and period_ns with it;
- wait_share: the share of loads (samples 1..) that waited;
- apart B: for the lines B bytes apart (warps 0-1, ..., 8-9 of each launch), the pairs whose
  phases are both known (each line's waits' mean vector longer than 0.5), and the share of them
  within 0.05 of the period of each other;
- random: the pairs of the 27 lines at random 256-byte pieces of the launch's 2 MB page (one of
  each near pair with the 22 others), then for a distance D of 0.01 and 0.05 of the period the
  pairs within D of each other, the count chance gives (a share 2 D of the pairs, as if the phases
  were independent), and the excess as a share of the pairs. A rule where lines fall into K
  refresh schedules at independent phases adds 1 / K (less the share whose phases are measured
  farther apart than D); hopper-h200's six groups of channels, 1 / 6.
"""
import cmath
import lzma
import math
import os
import statistics
import sys
from collections import defaultdict

import numpy as np

from refresh_phases import percentile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
FILES = ["refresh_sync.csv.xz", "refresh_sync_b.csv.xz"]
THRESHOLD = 200  # cycles over the line's median: a load that waited
WARPS = 32
NEAR = {0: 128, 2: 512, 4: 1024, 6: 2048, 8: 4096}  # first warp of a pair: bytes to the second
KNOWN = 0.5  # a line's phase is known where its waits' mean vector is longer than this


def launch_header(line):
    """A '# launch N spans: clock64 C cycles, globaltimer G ns; ...' line: (N, C / G in GHz, its words)."""
    words = line.split()
    return int(words[2]), int(words[5]) / int(words[8]), words


def load(name):
    """({launch: clock GHz}, {(launch, warp): samples}, {(launch, warp): [start cycle of each wait]})."""
    ghz, samples, medians, waits = {}, {}, {}, defaultdict(list)
    with lzma.open(os.path.join(DATA, name), "rt") as f:
        for line in f:
            if line.startswith("# launch"):
                launch, ghz[launch], _ = launch_header(line)
                for warp, entry in enumerate(line.split("samples:")[1].split()):
                    _, median, count = map(int, entry.split("/"))
                    medians[(launch, warp)], samples[(launch, warp)] = median, count
            elif line[:1].isdigit():
                launch, warp, sample, start, latency = map(int, line.split(","))
                if sample > 0 and latency > medians[(launch, warp)] + THRESHOLD:  # sample 0 walks the page table
                    waits[(launch, warp)].append(start)
    return ghz, samples, waits


def sums(times, owners, periods):
    """Per candidate period and line: the sum of exp(2 pi i t / period) over the line's waits."""
    phases = np.exp(2j * np.pi * np.outer(1 / periods, times))
    one_hot = np.zeros((len(times), WARPS))
    one_hot[np.arange(len(times)), owners] = 1
    return phases @ one_hot


def fold(waits, launch):
    """The launch's period (cycles) and each warp's mean vector at it."""
    times = np.array([t for w in range(WARPS) for t in waits[(launch, w)]], dtype=float)
    owners = np.array([w for w in range(WARPS) for _ in waits[(launch, w)]])
    counts = np.maximum(np.bincount(owners, minlength=WARPS), 1)

    def best(candidates):
        score = (np.abs(sums(times, owners, candidates)) ** 2 / counts).sum(axis=1)
        return candidates[int(np.argmax(score))]

    coarse = best(np.arange(3700.0, 3950.0, 1.0))
    period = best(np.arange(coarse - 1.5, coarse + 1.5, 0.05))
    vectors = sums(times, owners, np.array([period]))[0] / counts
    vectors[np.bincount(owners, minlength=WARPS) < 5] = 0
    return period, vectors


def difference(a, b):
    """b's phase less a's, as a share of the period in [-0.5, 0.5)."""
    return ((cmath.phase(b) - cmath.phase(a)) / (2 * math.pi) + 0.5) % 1.0 - 0.5


def report(name):
    ghz, samples, waits = load(name)
    periods, near, random_pairs = [], defaultdict(list), []
    for launch in sorted(ghz):
        period, vectors = fold(waits, launch)
        periods.append(period)
        known = [w for w in range(WARPS) if abs(vectors[w]) > KNOWN]
        for first, apart in NEAR.items():
            if first in known and first + 1 in known:
                near[apart].append(difference(vectors[first], vectors[first + 1]))
        lines = [w for w in known if w >= 10 or w in NEAR]
        random_pairs += [difference(vectors[i], vectors[j]) for i in lines for j in lines if i < j]
    clock = statistics.median(ghz.values())
    period = statistics.median(periods)
    print(f"file {name}")
    print(f"period_cycles {period:.1f} {percentile(periods, 0.1):.1f} {percentile(periods, 0.9):.1f}")
    print(f"clock_ghz {clock:.4f}")
    print(f"period_ns {period / clock:.0f}")
    waited = sum(len(v) for v in waits.values())
    print(f"wait_share {waited / sum(n - 1 for n in samples.values()):.3f}")
    for apart, ds in sorted(near.items()):
        print(f"apart {apart} {len(ds)} {sum(abs(d) < 0.05 for d in ds) / len(ds):.2f}")
    words = [str(len(random_pairs))]
    for distance in (0.01, 0.05):
        within = sum(abs(d) < distance for d in random_pairs)
        chance = 2 * distance * len(random_pairs)
        words += [str(within), f"{chance:.0f}", f"{(within - chance) / len(random_pairs):.4f}"]
    print("random " + " ".join(words))


def main():
    for name in FILES:
        report(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
