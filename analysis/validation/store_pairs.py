#!/usr/bin/env python3
"""How neighbouring warps of writeOffset store into the line they share, from per-warp records:
which stores first, how far apart, and how many L1 store hits that predicts.

    analysis/validation/store_pairs.py TIMELINE --case CASE --offset K [--visible-after X]...

TIMELINE: the H100's records (h100-measured/timeline_writeOffset.csv.xz: t_end is the warp's last
clock, just after its store issued) or the model's `warpsim run --timeline` file (t_end: its exit).
Warps w and w+1 of a block (16 warps of 512 threads) share one 128-byte line when the offset is
not a multiple of 32 floats. L1 stores hit by line (h100-measured/README.md): the second warp
hits every sector it writes into the line if the first's allocation is there, the sectors of the
pair's second warp: offset 1 (4 bytes), 4 after the lower warp and 1 after the upper; offset 8, 3
and 1; offset 16, 2 and 2. With --visible-after X the second store finds the line only when it
comes X cycles or more after the first. Prints "key value" lines: pairs, lower_first (the
fraction of pairs the lower warp stores first), gap_median (cycles), and hits_X for each X (L1
store-sector hits a warp, to set beside ncu's l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit
over the warps, store_hits.csv).
"""
import argparse
import sys

import measured_csv

# Store sectors the pair's second warp writes into the shared line: (after the lower warp, after the upper).
SECOND_WARP_SECTORS = {1: (4, 1), 2: (4, 1), 4: (4, 1), 8: (3, 1), 11: (3, 2), 16: (2, 2)}


def records(path, case):
    out = {}
    for row in measured_csv.rows(path):
        if case and row.get("case", case) != case:
            continue
        out[(int(row["block"]), int(row["warp"]))] = int(row["t_end"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("timeline")
    ap.add_argument("--case", default="", help="the H100 file's case (e.g. writeOffset_lg20_offset1)")
    ap.add_argument("--offset", type=int, required=True, choices=sorted(SECOND_WARP_SECTORS))
    ap.add_argument("--visible-after", type=int, action="append", default=[])
    a = ap.parse_args()
    t = records(a.timeline, a.case)
    if not t:
        sys.exit(f"{a.timeline}: no warp records" + (f" of case '{a.case}'" if a.case else ""))
    gaps = [t[(b, w + 1)] - end for (b, w), end in t.items() if (b, w + 1) in t]
    if not gaps:
        sys.exit(f"{a.timeline}: no neighbouring warps recorded")
    after_lower, after_upper = SECOND_WARP_SECTORS[a.offset]
    print("pairs", len(gaps))
    print("lower_first", round(sum(g > 0 for g in gaps) / len(gaps), 3))
    print("gap_median", sorted(abs(g) for g in gaps)[len(gaps) // 2])
    for x in a.visible_after:
        hits = sum(after_lower if g > 0 else after_upper for g in gaps if abs(g) >= x)
        print(f"hits_{x}", round(hits / len(t), 2))


if __name__ == "__main__":
    main()
