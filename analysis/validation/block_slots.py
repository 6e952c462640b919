#!/usr/bin/env python3
"""How long blocks hold an SM's block slots, from per-warp records: the H100's (tools/gpu-probes/
timelines.cu, h100-measured/timeline_*.csv.xz) or the model's (`warpsim run --timeline FILE`).

    block_slots.py FILE [--case NAME] [--slots N] [--first-last] [--every K]

Per block: its span, from its first recorded warp's start to its last recorded warp's end. Per SM,
with N blocks resident at a time (--slots; 4 for 512-thread blocks on an H100), each block takes
the slot the earliest-ended block left: the slot's gap is the time between that end and this start
(only where every block of the SM is recorded). Occupancy from the records, two ways: each warp
from its start to its own end, and from its start to its block's last end (as ncu's
sm__warps_active counts, models/core/sm.hpp), over each SM's span and 64 warp slots; --every K
scales the sums when the records hold every K-th block. --first-last keeps only each block's
lowest and highest recorded warp (the probe's `readOffset` step records just those two).

How far apart a block's warps live: the quantiles of each warp's own span (life_*), and of the
distance between the ends of each block's lowest and highest recorded warp (ends_apart_*). Where
the file gives the case's kernel time (a `# CASE kernel_ms=T` line, as persist_timeline.cu and
timelines.cu write, with `# device=... sms=N`), occupancy is also taken over that time on every SM
at --clock-mhz (occupancy_*_kernel): with --every, an SM's recorded blocks do not span its time.

The numbers the model's comments quote (models/memory/l2_cache.hpp, analysis/validation/
known_gaps.cpp, models/core/sm.hpp) come from this script; tests/analysis/test_block_slots.py
holds them to the committed data.
"""
import argparse
import collections
import heapq
import lzma
import statistics
import sys


def read_records(path, case, facts=None):
    """(block, warp, sm, t_start, t_end) of every record of `case` (probe files) or of the file.
    `facts` (a dict) receives the case's kernel_ms and the device's sms where `#` lines give them."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        header = None
        for line in f:
            if line.startswith("#"):
                if facts is not None:
                    words = line[1:].split()
                    if words and words[0].startswith("device="):
                        facts.update(w.split("=", 1) for w in words if w.startswith("sms="))
                    elif len(words) >= 2 and words[0] == case and words[1].startswith("kernel_ms="):
                        facts["kernel_ms"] = words[1].split("=", 1)[1]
                continue
            if not line.strip():
                continue
            cells = line.rstrip("\n").split(",")
            if header is None:
                header = {name: k for k, name in enumerate(cells)}
                missing = {"block", "warp", "smid", "t_start", "t_end"} - header.keys()
                if missing:
                    sys.exit(f"{path}: not a timeline (missing columns {sorted(missing)})")
                continue
            if "case" in header and case is not None and cells[header["case"]] != case:
                continue
            yield (int(cells[header["block"]]), int(cells[header["warp"]]), int(cells[header["smid"]]),
                   int(cells[header["t_start"]]), int(cells[header["t_end"]]))


def quantile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summarise(records, slots, first_last, every, warp_slots=64, slot_cycles=None):
    """`slot_cycles`: the kernel's cycles times its SMs' warp slots, where the file gives them."""
    blocks = collections.defaultdict(list)
    for block, warp, sm, start, end in records:
        blocks[block].append((warp, sm, start, end))
    if not blocks:
        return None
    by_sm = collections.defaultdict(list)  # sm -> (start, end, warps, own warp-cycles)
    for warps in blocks.values():
        if first_last:
            warps = [min(warps), max(warps)]
        start = min(w[2] for w in warps)
        end = max(w[3] for w in warps)
        by_sm[warps[0][1]].append((start, end, len(warps), sum(w[3] - w[2] for w in warps)))
    lives = sorted(w[3] - w[2] for warps in blocks.values() for w in warps)
    ends_apart = sorted(abs(max(warps)[3] - min(warps)[3]) for warps in blocks.values() if len(warps) > 1)
    spans, gaps, own, to_block_end = [], [], [], []
    for bl in by_sm.values():
        bl.sort()
        resident = []
        for start, end, _, _ in bl:
            if len(resident) >= slots:
                gaps.append(start - heapq.heappop(resident))
            heapq.heappush(resident, end)
            spans.append(end - start)
        sm_span = max(b[1] for b in bl) - min(b[0] for b in bl)
        own.append(every * sum(b[3] for b in bl) / (warp_slots * sm_span))
        to_block_end.append(every * sum(n * (end - start) for start, end, n, _ in bl) / (warp_slots * sm_span))
    gaps.sort()
    out = {"blocks": len(blocks), "span_mean": statistics.mean(spans), "span_median": statistics.median(spans)}
    for name, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
        out["life_" + name] = quantile(lives, q)
    if ends_apart:
        out.update(ends_apart_median=quantile(ends_apart, 0.5), ends_apart_p90=quantile(ends_apart, 0.9))
    if not first_last:  # occupancy needs every warp of a recorded block
        out.update(occupancy_own_exit=statistics.mean(own), occupancy_block_end=statistics.mean(to_block_end))
        if slot_cycles:
            out.update(occupancy_own_exit_kernel=every * sum(b[3] for bl in by_sm.values() for b in bl) / slot_cycles,
                       occupancy_block_end_kernel=every * sum(n * (end - start) for bl in by_sm.values()
                                                              for start, end, n, _ in bl) / slot_cycles)
    if gaps and every == 1:  # gaps need every block of an SM
        out.update(gap_median=statistics.median(gaps), gap_mean=statistics.mean(gaps),
                   gap_p10=gaps[len(gaps) // 10], gap_p90=gaps[9 * len(gaps) // 10])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("--case", help="the probe file's case (its first column)")
    p.add_argument("--slots", type=int, default=4, help="blocks resident per SM at a time")
    p.add_argument("--first-last", action="store_true", help="only each block's lowest and highest warp")
    p.add_argument("--every", type=int, default=1, help="the records hold every K-th block")
    p.add_argument("--clock-mhz", type=float, default=1980, help="the SM clock the kernel time counts in")
    a = p.parse_args()
    facts = {}
    records = list(read_records(a.file, a.case, facts))
    slot_cycles = None
    if "kernel_ms" in facts and "sms" in facts:
        slot_cycles = float(facts["kernel_ms"]) * 1e3 * a.clock_mhz * int(facts["sms"]) * 64
    s = summarise(records, a.slots, a.first_last, a.every, slot_cycles=slot_cycles)
    if s is None:
        sys.exit(f"{a.file}: no records" + (f" of case {a.case}" if a.case else ""))
    for key, value in s.items():
        print(f"{key} {value:.3f}" if isinstance(value, float) else f"{key} {value}")


if __name__ == "__main__":
    main()
