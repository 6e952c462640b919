#!/usr/bin/env python3
"""What a streamed load waits for on the H200 as more SMs stream, and what the DRAM's write-backs
add: h200/stream_latency.csv.xz (tools/gpu-probes/stream_latency.cu: readOffset's body in a loop on
S SMs, every warp of SMs 0-3 timed at every iteration) and h200/stream_latency_ncu.csv (the same
launches under ncu: the bytes written to DRAM).

    analysis/validation/stream_latency.py [--warpsim BINARY [--set KEY=VALUE ...]]

Prints one line per case: `CASE n p10 p50 p90 mean dram_write_tbps dram_read_tbps`, the cycles
from the iteration's first clock read to its data (the first 16 iterations of each warp left out:
the instruction cache and TLB warm up there), and ncu's DRAM bytes written and read over its time.
Then
`write_back_cost S CYCLES` for S = 33, 66 and 132 SMs: the mean of the body (loads and a streamed
store, whose lines L2 writes back to DRAM as they age) less that of the same loads beside no store
(S = 33) or beside stores that stay in L2 (66, 132), and `write_back_cost hits CYCLES`: the same
for L2 hits (SMs 0-3 reading 128 KB of their own past L1 beside the other SMs' body, less beside
their loads alone), and `write_back_cost lane0 CYCLES`: the body with one float stored a warp
(as many lines written back, each with one sector dirty) less the loads beside stores that stay in
L2. `read_cost three_loads CYCLES`: three loads a thread on 132 SMs (as many DRAM bytes as the body
with its write-backs, all read) less on one SM. `write_back_cost quiet CYCLES`: SMs 0-3 loading as
the others do but storing nothing, beside the others' body, less the loads alone everywhere.
`write_back_cost sectors_even` and `sectors_odd`: SMs 0-3 loading one float from each of 32 lines
a warp (even iterations: sector 0 of lines new to L2; odd: sector 2 of the same lines, a miss that
takes no line) beside the others' body, less beside their loads alone. `paced PACE MEAN TBPS
COST` for each pace of the paced_ cases: one sector a warp loaded on SMs 0-3 beside the other SMs'
stores alone, each warp sleeping PACE ns after each line (L2 full of dirty lines, so each line
stored is one written back): the loads' mean, the lines written back x 128 B over the launch's
time (from the records file's `#` lines), and the mean less that without writers. Then
`occupancy_k1 MEAN`:
readOffset's loads at n = 2^26 with one 512-thread block an SM (h200/store_acks_curve.csv.xz,
t_data - t_start). `neighbours CASE P50 P90` for the plain streams: how far apart in cycles the
waits of warps 2k and 2k + 1 of one SM at one iteration are (their lines are neighbours).
With --warpsim, `model light MEAN` and `model loaded MEAN dram_write_tbps`: the same two loads'
mean in `BINARY run --kernel readOffset --arch hopper-h200 --set sm.max_blocks=1 --timeline` on
4 SMs (n = 2^19: nothing written back) and on all of them (n = 2^26), its warps' first and second
load data less their start; `model neighbours P50 P90`: the loaded run's warps 2k and 2k + 1, their
first loads' waits apart. `--set` passes preset settings to those runs (e.g. the DRAM's write queue,
dram.write_queue).
"""
import argparse
import collections
import csv
import os
import sys
import tempfile

import block_slots
import measured_csv
import occupancy_curve

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
WARM_UP = 16
CASES = ("body_s1", "body_s4", "body_s16", "body_s33", "body_s66", "body_s132", "no_store_s1", "no_store_s33",
         "no_store_s132", "one_load_s1", "one_load_s132", "one_lane_s1", "one_lane_s132", "l2_store_s66",
         "l2_store_s132", "hits_alone_s4", "hits_beside_no_store_s132", "hits_beside_body_s132", "three_loads_s1",
         "three_loads_s132", "lane0_store_s132", "quiet_beside_body_s132", "sectors_beside_no_store_s132_even",
         "sectors_beside_no_store_s132_odd", "sectors_beside_body_s132_even", "sectors_beside_body_s132_odd")
BASELINES = {33: "no_store_s33", 66: "l2_store_s66", 132: "l2_store_s132"}
PACES = ("none", "w10000", "w2500", "w700", "w250", "w0")  # paced_*_s132: the writers' sleep, ns


def summary(values):
    """n, 10th, 50th and 90th percentile (block_slots.quantile), and mean of `values`."""
    v = sorted(values)
    return (len(v),) + tuple(block_slots.quantile(v, q) for q in (0.1, 0.5, 0.9)) + (sum(v) / len(v),)


NEIGHBOUR_CASES = ("no_store_s1", "no_store_s132", "l2_store_s132", "body_s1", "body_s132")


def neighbours_apart(waits):
    """p50 and p90 of |wait(2k) - wait(2k + 1)| over `waits`: {(sm, warp, iteration): cycles}."""
    apart = sorted(abs(c - waits[(sm, w + 1, it)]) for (sm, w, it), c in waits.items()
                   if w % 2 == 0 and (sm, w + 1, it) in waits)
    return block_slots.quantile(apart, 0.5), block_slots.quantile(apart, 0.9)


def gpu_records(path):
    """From the records file, read once: case -> its loads' cycles (the sectors_ cases split into
    CASE_even and CASE_odd), paced case -> the lines its writers stored (each one L2 wrote
    back) x 128 B over its time, TB/s, from its `# CASE kernel_ms=T bytes=B lines_stored=N` line,
    and for NEIGHBOUR_CASES case -> {(sm, warp, iteration): cycles}."""
    cycles, paced, by_warp = collections.defaultdict(list), {}, collections.defaultdict(dict)
    lines = measured_csv.lines(path)
    for line in lines:
        words = line[1:].split() if line.startswith("#") else []
        if words and words[0].startswith("paced_"):
            facts = dict(w.split("=", 1) for w in words[1:])
            paced[words[0]] = int(facts["lines_stored"]) * 128 / (float(facts["kernel_ms"]) * 1e9)
    for row in csv.DictReader(line for line in lines if not line.startswith("#")):
        it = int(row["iter"])
        if it >= WARM_UP:
            case = row["case"] + (("_odd" if it % 2 else "_even") if row["case"].startswith("sectors_") else "")
            cycles[case].append(int(row["cycles"]))
            if case in NEIGHBOUR_CASES:
                by_warp[case][(int(row["sm"]), int(row["warp"]), it)] = int(row["cycles"])
    return cycles, paced, by_warp


def dram_tbps(path):
    """case -> (DRAM bytes written, read) over the launch's time, TB/s, from ncu's rows."""
    out = {}
    for row in measured_csv.rows(path):
        value = lambda key: float(row[key].replace(",", ""))
        ns = value("gpu__time_duration.sum")
        out[row["case"]] = (value("dram__bytes_write.sum") / ns / 1e3, value("dram__bytes_read.sum") / ns / 1e3)
    return out


def occupancy_k1_mean():
    path = os.path.join(DATA, "store_acks_curve.csv.xz")
    rows = [r for r in measured_csv.rows(path) if r["case"] == "readOffset_k1_sm0"]
    if not rows:
        sys.exit(f"{path}: no case readOffset_k1_sm0")
    return sum(int(r["t_data"]) - int(r["t_start"]) for r in rows) / len(rows)


def model_mean(binary, n, sms, settings=()):
    """The model's mean wait for readOffset's two loads, one block an SM, its DRAM writes, TB/s, and
    its neighbouring warps' first loads' waits apart (neighbours_apart)."""
    with tempfile.TemporaryDirectory() as tmp:
        timeline = os.path.join(tmp, "timeline.csv")
        result = occupancy_curve.run_readoffset(binary, timeline, 1, n=n, sms=sms, settings=settings)
        with open(timeline) as f:
            rows = [r for r in csv.DictReader(f) if r["t_first_data"] and r["t_second_data"]]
    waits = [max(int(r["t_first_data"]), int(r["t_second_data"])) - int(r["t_start"]) for r in rows]
    first = {(int(r["block"]), int(r["warp"]), 0): int(r["t_first_data"]) - int(r["t_start"]) for r in rows}
    return (sum(waits) / len(waits), result["metrics"]["dram_write_bytes"] / (result["time_ms"] * 1e9),
            neighbours_apart(first))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", help="a warpsim binary: print the model's means too")
    occupancy_curve.add_set_option(ap)
    a = ap.parse_args()
    records, ncu = os.path.join(DATA, "stream_latency.csv.xz"), os.path.join(DATA, "stream_latency_ncu.csv")
    (cycles, paced, by_warp), dram = gpu_records(records), dram_tbps(ncu)
    means = {}
    for case in CASES:
        launch = case.rsplit("_", 1)[0] if case.startswith("sectors_") else case
        if case not in cycles or launch not in dram:
            sys.exit(f"{records} / {ncu}: no case {launch}")
        n, p10, p50, p90, mean = summary(cycles[case])
        means[case] = mean
        print(f"{case} {n} {p10} {p50} {p90} {mean:.1f} {dram[launch][0]:.3f} {dram[launch][1]:.3f}")
    for sms, baseline in BASELINES.items():
        print(f"write_back_cost {sms} {means[f'body_s{sms}'] - means[baseline]:.1f}")
    print(f"write_back_cost hits {means['hits_beside_body_s132'] - means['hits_beside_no_store_s132']:.1f}")
    print(f"write_back_cost lane0 {means['lane0_store_s132'] - means['l2_store_s132']:.1f}")
    print(f"read_cost three_loads {means['three_loads_s132'] - means['three_loads_s1']:.1f}")
    print(f"write_back_cost quiet {means['quiet_beside_body_s132'] - means['no_store_s132']:.1f}")
    for parity in ("even", "odd"):
        cost = means[f"sectors_beside_body_s132_{parity}"] - means[f"sectors_beside_no_store_s132_{parity}"]
        print(f"write_back_cost sectors_{parity} {cost:.1f}")
    for pace in PACES:
        case = f"paced_{pace}_s132"
        if case not in cycles or case not in paced:
            sys.exit(f"{records}: no case {case}")
        means[case] = summary(cycles[case])[4]
        print(f"paced {pace} {means[case]:.1f} {paced[case]:.3f} {means[case] - means['paced_none_s132']:.1f}")
    print(f"occupancy_k1 {occupancy_k1_mean():.1f}")
    for case in NEIGHBOUR_CASES:
        p50, p90 = neighbours_apart(by_warp[case])
        print(f"neighbours {case} {p50} {p90}")
    if a.warpsim:
        light, _, _ = model_mean(a.warpsim, 1 << 19, 4, a.set)
        loaded, tbps, apart = model_mean(a.warpsim, 1 << 26, None, a.set)
        print(f"model light {light:.1f}")
        print(f"model loaded {loaded:.1f} {tbps:.3f}")
        print(f"model neighbours {apart[0]} {apart[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
