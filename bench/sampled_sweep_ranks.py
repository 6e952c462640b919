#!/usr/bin/env python3
"""Does a sampled sweep rank its points as the full sweep does? Runs SPEC twice with the real
simulator -- as written (every study's `sample` forced off) and with `sample = on` -- and compares
every /grid dataset of time_ms: whether the points come in the same order (no pair the other way
round; points tied in the full sweep may come in either), how many of the pairs that swapped were
further apart in the full sweep than their stated errors (time_error_pct) allow, Spearman's rank
correlation, and the largest time error of a point.
    bench/sampled_sweep_ranks.py SPEC [-j N] [--warpsim PATH] [--keep DIR [--reuse-full]]
Prints a Markdown summary; exits 0 (it measures, it does not judge)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time


def with_sample(text, value):
    """The spec with `sample = value` in [sweep] and no `sample` line in any study."""
    lines = [l for l in text.splitlines() if not re.match(r"\s*sample\s*=", l)]
    out, placed = [], False
    for l in lines:
        out.append(l)
        if re.match(r"\s*\[sweep\]", l):
            out.append(f"sample = {value}")
            placed = True
    if not placed:
        out = ["[sweep]", f"sample = {value}", ""] + out
    return "\n".join(out) + "\n"


def grids(h5, dataset="time_ms"):
    """{group path: values} of `dataset` in every /grid group that holds time_ms."""
    import h5py
    import numpy as np
    found = {}
    with h5py.File(h5, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and name.endswith("time_ms"):
                group = obj.parent
                found[name] = group[dataset][()].ravel() if dataset in group else np.zeros(obj.shape).ravel()
        f["grid"].visititems(visit)
    return found


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):  # average ranks over ties
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else 1.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("spec")
    p.add_argument("-j", default="2")
    p.add_argument("--warpsim", default=os.path.join(os.path.dirname(__file__), "..", "build", "cli", "warpsim"))
    p.add_argument("--keep", help="write the two result files here")
    p.add_argument("--reuse-full", action="store_true", help="with --keep: take the full sweep from there if present")
    a = p.parse_args()
    text = open(a.spec).read()
    out = a.keep or tempfile.mkdtemp(prefix="warpsim-ranks-")
    os.makedirs(out, exist_ok=True)
    spec_dir = os.path.dirname(os.path.abspath(a.spec))  # relative trace paths stay valid
    files, seconds = {}, {}
    for mode in ("off", "on"):
        if mode == "off" and a.reuse_full and a.keep and os.path.exists(os.path.join(out, "off.h5")):
            files[mode], seconds[mode] = os.path.join(out, "off.h5"), float("nan")
            continue
        spec = os.path.join(spec_dir, f".ranks-{os.getpid()}-{mode}.ini")
        with open(spec, "w") as f:
            f.write(with_sample(text, mode))
        files[mode] = os.path.join(out, f"{mode}.h5")
        start = time.time()
        try:
            subprocess.run([a.warpsim, "sweep", spec, "-o", files[mode], "-j", a.j, "--progress", "none"], check=True)
        finally:
            os.remove(spec)
        seconds[mode] = time.time() - start
    full, sampled, stated = grids(files["off"]), grids(files["on"]), grids(files["on"], "time_error_pct")
    print(f"{os.path.basename(a.spec)}: full sweep {seconds['off']:.0f} s, sampled {seconds['on']:.0f} s (wall, -j {a.j})\n")
    print("| grid | points | same order | pairs the other way round | of those, apart by more than their stated errors | Spearman | max time error |")
    print("|---|---|---|---|---|---|---|")
    for name, f in full.items():
        s = sampled[name]
        idx = [i for i in range(len(f)) if f[i] == f[i] and s[i] == s[i]]  # both succeeded
        fv, sv = [f[i] for i in idx], [s[i] for i in idx]
        ev = [0.0 if stated[name][i] != stated[name][i] else stated[name][i] / 100 for i in idx]  # NaN: not sampled
        pairs = [(x, y) for x in range(len(fv)) for y in range(len(fv)) if fv[x] < fv[y] and sv[x] > sv[y]]
        flipped = len(pairs)
        apart = sum(1 for x, y in pairs if fv[y] - fv[x] > ev[x] * fv[x] + ev[y] * fv[y])
        err = max((abs(sv[i] / fv[i] - 1) * 100 for i in range(len(fv))), default=0)
        print(f"| /{name.rsplit('/', 1)[0]} | {len(fv)} | {'yes' if flipped == 0 else 'no'} | {flipped} | {apart} | "
              f"{spearman(fv, sv):.6f} | {err:.2f}% |")


if __name__ == "__main__":
    sys.exit(main())
