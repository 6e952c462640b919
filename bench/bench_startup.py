#!/usr/bin/env python3
"""End-to-end wall time of short runs, two (or more) warpsim binaries side by side.

    bench/bench_startup.py OLD/cli/warpsim NEW/cli/warpsim [--runs N] [-- RUN ARGS...]

Each binary runs the same command N times, the binaries alternating (so a machine that slows
down or speeds up during the benchmark slows them alike), timed from this process: exec, dynamic
loading, the simulation and the process's teardown all count, as a user waiting for a small run
sees them. Prints each binary's median and quartiles, each one's median against the first's,
and whether all printed the same output. Default command: the vectoradd trace of the shared
corpus on hopper-h100 (issue 28's 30 ms goal), found through WARPSIM_SHARED or ../shared.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def default_command():
    shared = os.environ.get("WARPSIM_SHARED") or os.path.join(os.path.dirname(__file__), "..", "..", "shared")
    trace = os.path.join(shared, "traces", "vectoradd-sm80-v5")
    return ["run", "--arch", "hopper-h100", "--trace", trace]


def main():
    argv = sys.argv[1:]
    command = None
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args(argv)
    command = command or default_command()
    times = {b: [] for b in args.binaries}
    outputs = {}
    for i in range(args.runs):
        order = args.binaries if i % 2 == 0 else list(reversed(args.binaries))
        for b in order:
            start = time.monotonic()
            p = subprocess.run([b] + command, capture_output=True, text=True)
            times[b].append((time.monotonic() - start) * 1000)
            if p.returncode != 0:
                sys.exit(f"{b} {' '.join(command)}: exit {p.returncode}\n{p.stderr}")
            outputs.setdefault(b, p.stdout)
    first = statistics.median(times[args.binaries[0]])
    print(f"{' '.join(command)}: {args.runs} runs each, alternating")
    for b in args.binaries:
        q = statistics.quantiles(times[b], n=4)
        m = statistics.median(times[b])
        print(f"  {b}: median {m:.1f} ms (quartiles {q[0]:.1f}-{q[2]:.1f}), {m / first:.3f}x the first")
    same = len({outputs[b] for b in args.binaries}) == 1
    print("  same output: " + ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
