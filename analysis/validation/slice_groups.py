#!/usr/bin/env python3
"""Which lines share an L2 slice, and which of a block's loads stall together under a set-aside.

    slice_groups.py [DATA_DIR]     (default: analysis/validation/data)

DATA_DIR/h200/l2_slice_pairs.csv.xz (tools/gpu-probes/l2_slice_map.cu pairs, under ncu): for each
pair of 64 lines, one thread read both in turn 2,048 times each; ncu's
lts__t_requests_srcunit_tex.max is 4,096 where one slice served both. The lines of one 4 KB block
(0-31) fall into groups of four, {b, b+1, b+4, b+5}: a slice takes two 256-byte pieces 512 bytes
apart of each 4 KB.

DATA_DIR/h200/l2_slice_blocks.csv.xz (l2_slice_map.cu blocks): the same for the first lines of 128
consecutive 4 KB blocks. One slice serving two of them is an equivalence (every pair of a class
shares a slice, no pair across classes does), and the 128 fall into 44 slices: fewer than the ~70
of 94 a map spreading blocks at random would reach, where the model's maps spread them over 94
(consecutive lines to consecutive slices, at random) or keep them apart a round at a time
(l2.slice_pieces' even rotation). Blocks k and k XOR 29, and k XOR 97, share a slice most often.
DATA_DIR/h200/l2_slice_weighted.csv.xz (l2_slice_map.cu weighted, twelve pairs a launch): the
first lines of 384 blocks, the same pairs for the first 128; they fall into exactly 47 slices,
five to twelve blocks each, never both blocks of an aligned 8 KB.

DATA_DIR/{h100-measured,h200}/load_spread.csv.xz (load_spread.cu): every warp of every 32nd
1,024-thread block of persistKernel-like launches, warp w reading line w of its block's 4 KB.
Where a set-aside makes the L2 write dirty lines back (dram_setaside, persist_setaside), a
block's slow hot loads (above the launch's 90th percentile) come four at a time far more often
than 3 or 5, and the four are one slice's lines: the slice, hits included, stalls, and then
answers the four within tens of cycles of one another. Without a set-aside (dram, persist) no
such grouping.

DATA_DIR/h200/slice_stalls{,_repeat}.csv.xz (slice_stalls.cu): one warp reads a line of each of
four slices in turn while persistKernel runs beside it: its hits wait up to ~2,700 cycles where a
set-aside's write-backs go, and no longer than alone without the set-aside or without the stores
(docs/model.md, "Where a set-aside's loads stall").
"""
import collections
import os
import sys

import measured_csv


def shared_pairs(path):
    """The lines (or blocks) of a file of pairs (l2_slice_pairs, l2_slice_blocks: a row per pair),
    and the pairs one slice serves: requests_max is then all the launch's requests, else about half."""
    shared, lines = set(), set()
    for r in measured_csv.rows(path):
        a, b = int(r["a"]), int(r["b"])
        lines |= {a, b}
        if int(r["requests_max"]) > 0.75 * int(r["requests_sum"]):
            shared.add((a, b))
    return lines, shared


def slice_groups(path):
    """The 64 lines' groups, each a sorted list of the lines one slice serves, by their first line."""
    return sorted(classes_of(*shared_pairs(path), path))


def quantile(values, p):
    values = sorted(values)
    return values[int(p * (len(values) - 1))]


def block_classes(path):
    """The blocks whose first lines one slice serves, as sorted lists, largest first, and the pairs
    that share one (l2_slice_blocks: a row per pair)."""
    blocks, shared = shared_pairs(path)
    return classes_of(blocks, shared, path), shared


def weighted_classes(path):
    """The same from l2_slice_weighted (a row per launch: block x, the blocks y_i read beside it;
    requests_max less x's 8,192 reads has bit i+1 set where x's slice serves y_i, bit 0 being the
    launch's own request)."""
    shared, blocks = set(), set()
    for line, r in enumerate(measured_csv.rows(path)):
        x, ys = int(r["x"]), [int(y) for y in r["y"].split(";")]
        extra = int(r["requests_max"]) - 8192
        if not 0 <= extra < 2 ** (len(ys) + 1):
            raise ValueError(f"{path}: launch {line} (x={x}): requests_max {r['requests_max']} is not x's 8,192 reads "
                             "and some of the others'")
        blocks |= {x, *ys}
        shared |= {(x, y) for i, y in enumerate(ys) if extra >> (i + 1) & 1}
    return classes_of(blocks, shared, path), shared


def classes_of(blocks, shared, path):
    """The classes of blocks that share a slice, largest first; raises ValueError where the pairs
    measured are not an equivalence (a pair shared where its classes differ)."""
    parent = {k: k for k in blocks}

    def root(k):
        while parent[k] != k:
            k = parent[k]
        return k

    for a, b in shared:
        parent[root(a)] = root(b)
    for a in blocks:
        for b in blocks:
            if a < b and ((a, b) in shared) != (root(a) == root(b)):
                raise ValueError(f"{path}: blocks {a} and {b}: one slice's pairs are not an equivalence")
    classes = collections.defaultdict(list)
    for k in sorted(blocks):
        classes[root(k)].append(k)
    return sorted(classes.values(), key=lambda c: (-len(c), c))


def stall_groups(path, case):
    """For `case` of load_spread.csv.xz: how many blocks have k slow hot loads (a Counter), the
    slow warps' sets in blocks with exactly four, and the median spread of those four's data
    arrivals and of their excess over the block's other warps' median wait (cycles)."""
    blocks = collections.defaultdict(list)
    for row in measured_csv.data_lines(path)[1:]:
        c, block, warp, _sm, _wid, t0, t1, _t2, _t3 = row.strip().split(",")
        if c == case:
            blocks[int(block)].append((int(warp), int(t0), int(t1)))
    if not blocks:
        raise SystemExit(f"{path}: no rows of case {case}")
    p90 = quantile([t1 - t0 for v in blocks.values() for _w, t0, t1 in v], 0.9)
    counts, fours, spreads, excess = collections.Counter(), collections.Counter(), [], []
    for v in blocks.values():
        slow = [(w, t0, t1) for w, t0, t1 in v if t1 - t0 > p90]
        counts[len(slow)] += 1
        if len(slow) == 4:
            fours[tuple(sorted(w for w, _, _ in slow))] += 1
            spreads.append(max(t1 for _, _, t1 in slow) - min(t1 for _, _, t1 in slow))
            rest = [t1 - t0 for w, t0, t1 in v if t1 - t0 <= p90]
            excess.append(quantile([t1 - t0 for _, t0, t1 in slow], 0.5) - quantile(rest, 0.5))
    return {"blocks": len(blocks), "counts": counts, "fours": fours,
            "spread": quantile(spreads, 0.5) if spreads else None,
            "excess": quantile(excess, 0.5) if excess else None}


def observer_waits(path):
    """slice_stalls.csv.xz: per case, the observer's load cycles while persistKernel ran (on the
    observer's clock, its blocks' first start to last end on that SM; every load for `alone`)."""
    spans, loads = {}, {}
    for row in measured_csv.lines(path):
        if row.startswith("# ") and "kernel_ms=" in row:
            parts = row.split()
            kv = dict(p.split("=", 1) for p in parts[2:])
            spans[parts[1]] = (int(kv["persist_first"]), int(kv["persist_last"]))
        if row.startswith("#") or row.startswith("case,"):
            continue
        case, _k, _line, t, cycles = row.strip().split(",")
        first, last = spans[case]
        if first == 0 or first <= int(t) <= last:
            loads.setdefault(case, []).append(int(cycles))
    return loads


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    groups = slice_groups(os.path.join(data, "h200", "l2_slice_pairs.csv.xz"))
    print("H200, lines sharing a slice (0-31: one 4 KB block; 32-63: 4 KB apart):")
    print("  " + " ".join("{" + ",".join(map(str, g)) + "}" for g in groups if len(g) > 1))
    classes, shared = block_classes(os.path.join(data, "h200", "l2_slice_blocks.csv.xz"))
    xors = collections.Counter(a ^ b for a, b in shared).most_common(3)
    print(f"H200, first lines of 128 consecutive 4 KB blocks: {len(classes)} slices, "
          f"{dict(sorted(collections.Counter(map(len, classes)).items()))} blocks a slice (size: slices); "
          f"commonest k XOR k': {', '.join(f'{x} ({n} pairs)' for x, n in xors)}")
    classes, _ = weighted_classes(os.path.join(data, "h200", "l2_slice_weighted.csv.xz"))
    print(f"H200, first lines of 384 consecutive 4 KB blocks: {len(classes)} slices, "
          f"{dict(sorted(collections.Counter(map(len, classes)).items()))} blocks a slice (size: slices)")
    for gpu in ("h100-measured", "h200"):
        path = os.path.join(data, gpu, "load_spread.csv.xz")
        for case in ("dram", "dram_setaside", "persist", "persist_setaside"):
            s = stall_groups(path, case)
            c = s["counts"]
            top = ", ".join(f"{{{','.join(map(str, k))}}} {n}" for k, n in s["fours"].most_common(3))
            print(f"{gpu} {case}: blocks with 3 / 4 / 5 / 8 slow hot loads {c[3]} / {c[4]} / {c[5]} / {c[8]} "
                  f"of {s['blocks']}; the fours' data arrive a median {s['spread']} cycles apart, "
                  f"{s['excess']} after the block's others; most common: {top}")
    for name in ("slice_stalls.csv.xz", "slice_stalls_repeat.csv.xz"):
        waits = observer_waits(os.path.join(data, "h200", name))
        print(f"h200 {name}, an observer's L2 hits to four slices while persistKernel runs (cycles, p50 / p99 / max; "
              "share over 1,000):")
        for case, w in waits.items():
            print(f"  {case}: {quantile(w, 0.5)} / {quantile(w, 0.99)} / {max(w)}; "
                  f"{sum(1 for x in w if x > 1000) / len(w):.3f} of {len(w)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
