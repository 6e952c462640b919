#!/usr/bin/env python3
"""What a taken branch costs one warp, from h100-measured/branch_cost.csv
(tools/gpu-probes/branch_cost.cu): one warp an SM running chains of dependent FFMAs, straight
and in loops unrolled 1-32 times, timed with clock64.

    branch_cost.py [DATA_DIR]

For each ILP, the cycles a pass of the loop unrolled 16 times takes (from the 512- and 256-FFMA
runs, which cancels what surrounds the timed part) against the 4 cycles an FFMA the straight
code takes, and the cycles a taken branch then costs: a pass of 16 dependent FFMAs and its
back branch lets the next pass's first FFMA issue 61 + B cycles after this pass's first (the
last FFMA at 60, the branch at 61) where B is the cycles from the branch's issue to the next
instruction's: hopper-h100's latency.taken_branch. Then the passes of the tightest loops
(unroll 1-4), which their loop control, not the FFMAs, decides. Prints one line per figure;
tests/analysis/test_branch_cost.py holds the preset to it.
"""
import os
import sys

import measured_csv

PASS_FFMAS = 16  # the loop the preset's value comes from: 16 FFMAs a pass, as fmaChain's


def runs(path):
    """{(case, unroll, ilp, ffmas): cycles}."""
    return {(r["case"], int(r["unroll"]), int(r["ilp"]), int(r["ffmas"])): int(r["cycles"]) for r in measured_csv.rows(path)}


def per_ffma(r, case, unroll, ilp):
    """Cycles per FFMA of one chain, from the 512- and 256-FFMA runs."""
    return (r[(case, unroll, ilp, 512)] - r[(case, unroll, ilp, 256)]) / 256


def taken_branch(r):
    """Cycles from a taken branch's issue to the next instruction's, from ILP 1's 16-FFMA loop."""
    chain = per_ffma(r, "straight", 0, 1)  # one FFMA's latency
    pass_cycles = PASS_FFMAS * per_ffma(r, "loop", PASS_FFMAS, 1)
    return pass_cycles - (chain * (PASS_FFMAS - 1) + 1), chain, pass_cycles


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data", "h100-measured")
    r = runs(os.path.join(data, "branch_cost.csv"))
    b, chain, pass_cycles = taken_branch(r)
    print(f"straight dependent FFMAs: {chain:.2f} cycles each")
    print(f"loop of {PASS_FFMAS} FFMAs: {pass_cycles:.1f} cycles a pass; a taken branch: {b:.1f} cycles to the next issue")
    for ilp in (1, 2, 4):
        print(f"ILP {ilp}: straight {per_ffma(r, 'straight', 0, ilp):.2f}, loop of 16 {per_ffma(r, 'loop', 16, ilp):.2f} "
              "cycles per FFMA of a chain")
    for unroll in (1, 2, 4):
        print(f"unroll {unroll}: {r[('loop', unroll, 1, 512)] * unroll / 512:.1f} cycles a pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
