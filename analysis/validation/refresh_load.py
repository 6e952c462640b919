#!/usr/bin/env python3
"""What a refresh costs a line while every SM streams: the H200's h200/refresh_load_*.csv.xz
(tools/gpu-probes/refresh_load.cu).

    analysis/validation/refresh_load.py

refresh_sync.cu's sampler (32 warps of one SM, each discarding a line of its own from L2 and
loading it again, 320 times; the same lines as refresh_sync.csv.xz) alone (`idle`) and beside a
read stream of 16 GB, one block of 1,024 threads on each SM (`stream`); 64 launches each, in one
run on one GPU. Launch 0 is left out (its sampler started after the stream had ended). Printed,
one `name value...` a line:
- stream_tbps: the stream's bytes over its time (first block's start to last block's end, by
  %globaltimer), the median over the launches, and as a share of the pins' rate (device.csv:
  busWidth x 2 x memClockKHz);
- for each file: latency_p10/p50/p90, the sampler's load latencies (cycles); period_cycles, the
  period at which the lines' latencies above their median line up best (each launch's best in
  2-cycle steps over 3,500-4,100, then 0.1 steps within 3 cycles of the median of those), the
  median over the launches; agree, the launches whose own best lies within 10 cycles of that
  median (noise would put 2 of 63 there); strength, how well they line up at it against the
  median candidate (the score: the sum over lines of |sum of excess x exp(2 pi i t / period)|^2
  / (sum of excess)^2 x samples, against its median over every 20th cycle of 3,500-4,100), then
  what noise makes of it: in the first eight launches, each line's latencies shuffled over its
  samples, the best candidate's score against that median, least and most; profile, each
  line's latency less its median, averaged over 20 bins of the period centred on the line's own
  phase (the window at bins 9-10).
"""
import lzma
import os
import statistics
import sys
from collections import defaultdict

import numpy as np

import measured_csv
from refresh_sync import DATA, WARPS, launch_header

BINS = 20
SHUFFLED = 8  # launches whose latencies are shuffled to show what noise alone scores


def load(name):
    """({launch: ghz}, {launch: (stream bytes, stream ns)}, {launch: (times[warp], latencies[warp])})."""
    ghz, stream, rows = {}, {}, defaultdict(lambda: defaultdict(list))
    with lzma.open(os.path.join(DATA, name), "rt") as f:
        for line in f:
            if line.startswith("# launch"):
                launch, ghz[launch], words = launch_header(line)
                if "stream" in words:
                    at = words.index("stream")
                    stream[launch] = (int(words[at + 1]), int(words[at + 4]))
            elif line[:1].isdigit():
                launch, warp, sample, start, latency = map(int, line.split(","))
                if sample > 0:  # sample 0 walks the page table
                    rows[launch][warp].append((start, latency))
    samples = {}
    for launch, warps in rows.items():
        v = np.array([warps[w] for w in range(WARPS)], dtype=float)  # warp x sample x (start, latency)
        samples[launch] = (v[:, :, 0], v[:, :, 1])
    return ghz, stream, samples


def vectors(times, latencies, periods):
    """Per candidate period and warp: sum of excess x exp(2 pi i t / period), and the excess's sum."""
    excess = np.clip(latencies - np.median(latencies, axis=1, keepdims=True), 0, None)
    phases = np.exp(2j * np.pi * times[None, :, :] / periods[:, None, None])
    return (phases * excess[None]).sum(axis=2), excess.sum(axis=1)


def scores(times, latencies, periods):
    z, total = vectors(times, latencies, periods)
    return (np.abs(z) ** 2 / np.maximum(total, 1) ** 2 * times.shape[1]).sum(axis=1)


def analyse(name):
    ghz, stream, samples = load(name)
    launches = sorted(samples)[1:]
    coarse = np.arange(3500.0, 4100.0, 2.0)
    bests = [coarse[int(np.argmax(scores(*samples[l], coarse)))] for l in launches]
    middle = statistics.median(bests)
    fine = np.arange(middle - 3, middle + 3, 0.1)
    periods, strengths = [], []
    profile, counts = np.zeros(BINS), np.zeros(BINS)
    for launch in launches:
        times, latencies = samples[launch]
        period = fine[int(np.argmax(scores(times, latencies, fine)))]
        periods.append(period)
        strengths.append(scores(times, latencies, np.array([period]))[0] / np.median(scores(times, latencies, coarse[::10])))
        z, _ = vectors(times, latencies, np.array([period]))
        centre = np.angle(z[0]) / (2 * np.pi)
        phase = (times / period - centre[:, None] + 0.5) % 1.0
        bins = (phase * BINS).astype(int) % BINS
        np.add.at(profile, bins.ravel(), (latencies - np.median(latencies, axis=1, keepdims=True)).ravel())
        np.add.at(counts, bins.ravel(), 1)
    # Noise: each line's latencies shuffled over its samples (the period gone), the best
    # candidate against the median, in the first SHUFFLED launches.
    rng = np.random.default_rng(1)
    shuffled = []
    for launch in launches[:SHUFFLED]:
        times, latencies = samples[launch]
        latencies = np.array([rng.permutation(line) for line in latencies])
        shuffled.append(scores(times, latencies, coarse).max() / np.median(scores(times, latencies, coarse[::10])))
    every = np.concatenate([samples[l][1].ravel() for l in launches])
    return {
        "stream": stream, "launches": launches, "ghz": statistics.median(ghz[l] for l in launches),
        "latency": [np.percentile(every, q) for q in (10, 50, 90)], "period": statistics.median(periods),
        "strength": statistics.median(strengths), "profile": profile / np.maximum(counts, 1),
        "agree": sum(abs(b - middle) <= 10 for b in bests), "shuffled": (min(shuffled), max(shuffled)),
    }


def pins_tbps():
    row = measured_csv.rows(os.path.join(DATA, "device.csv"))[0]
    return int(row["busWidth"]) / 8 * 2 * int(row["memClockKHz"]) * 1e3 / 1e12


def main():
    idle, loaded = analyse("refresh_load_idle.csv.xz"), analyse("refresh_load_stream.csv.xz")
    rate = statistics.median(b / t / 1e3 for l, (b, t) in loaded["stream"].items() if l in loaded["launches"])
    print(f"stream_tbps {rate:.3f} {rate / pins_tbps():.3f}")
    for label, r in (("idle", idle), ("stream", loaded)):
        print(f"{label} clock_ghz {r['ghz']:.4f}")
        print(f"{label} latency_p10/p50/p90 " + " ".join(f"{v:.0f}" for v in r["latency"]))
        print(f"{label} period_cycles {r['period']:.1f}")
        print(f"{label} agree {r['agree']} of {len(r['launches'])}")
        print(f"{label} strength {r['strength']:.1f} shuffled {r['shuffled'][0]:.1f}-{r['shuffled'][1]:.1f}")
        print(f"{label} profile " + " ".join(f"{v:.0f}" for v in r["profile"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
