"""h100-measured/ and h200/time_repeats.csv.xz: how much Nsight Compute's time of one launch varies
between runs of the same program (calibrate.cu's offset and stride families, warp_lifetime.cu;
three runs each). The short launches, n = 2^20 and one wave of fmaChain, vary by a median 1.7% of
their time and at most 8.4% on the H100 (over all 89 cases 0.8%), by 2.8% and 18% on the H200 (the
data's READMEs quote these)."""
import csv
import io
import lzma
import os
import statistics
from collections import defaultdict

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
data = os.path.join(source, "analysis", "validation", "data")


def spreads(gpu_dir):
    """{(case, params): (largest - smallest) / median} over the runs, and the short launches' values."""
    with lzma.open(os.path.join(data, gpu_dir, "time_repeats.csv.xz"), "rt") as f:
        text = "".join(line for line in f if not line.startswith("#"))
    times = defaultdict(list)
    for r in csv.DictReader(io.StringIO(text)):
        times[(r["case"], r["params"])].append((r["repeat"], float(r["gpu__time_duration.sum"])))
    assert len(times) == 89 and all({rep for rep, _ in v} == {"1", "2", "3"} for v in times.values())
    spread = {k: (max(t for _, t in v) - min(t for _, t in v)) / statistics.median(t for _, t in v)
              for k, v in times.items()}
    short = [s for k, s in spread.items() if "lg=20" in k[1] or "grid=132;" in k[1]]
    assert len(short) == 50
    return spread, short


def main():
    spread, short = spreads("h100-measured")
    assert (round(statistics.median(short), 3), round(max(short), 3)) == (0.017, 0.084), short
    assert round(statistics.median(spread.values()), 3) == 0.008
    _, h200 = spreads("h200")
    assert (round(statistics.median(h200), 3), round(max(h200), 2)) == (0.028, 0.18), h200
    print(f"time_repeats: short launches vary by a median {statistics.median(short):.1%} (at most "
          f"{max(short):.1%}), all {len(spread)} cases {statistics.median(spread.values()):.1%}; on the H200 "
          f"{statistics.median(h200):.1%} (at most {max(h200):.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
