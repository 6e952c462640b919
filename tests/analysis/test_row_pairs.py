"""h100-measured/row_pairs_{near,scan}.csv.xz (tools/gpu-probes/row_pairs.cu): a cold line B read
right after a cold line A against B read alone, the minimum of seven passes each (every pass in
an order of its own, so that refresh waits do not fall on the same trials). The H100 answers B no
sooner when A opened its row 64 or 128 bytes away ("near": 2,048 pairs each, median difference 0
cycles, 10th and 90th percentiles -11 and +11), and no distance from 64 B to 512 KB ("scan", 4,096
distances) shows a row opened or a bank taken by A: one pair differs by more than 25 cycles. The
probe's first run (row_pairs_one_order.csv.xz: every pass in one page order, three passes) put
the channels' refreshes on the same trials pass after pass: 475 of its 4,096 pairs differ by more
than 25 cycles, from -445 to +454. The model (analysis/validation/row_pairs.py: one warp's 400
pairs on hopper-h100) answers B 1.9 cycles later from A's row than from another (the H100: no
sooner): an open row answers at dram.latency_min only a read queued behind the request
before it, and A's is back by then (it answered 32.7 cycles sooner while every open row answered
at latency_min). The H200 (h200/row_pairs_*.csv.xz) the same: median 0 (p10 -10, p90 +10), 3 of
4,096 distances beyond 25 cycles; hopper-h200 4.9 cycles later. The docs (docs/model.md, the
data's README, the probe's comment) quote these figures.

Run by ctest with WARPSIM_BINARY and WARPSIM_SOURCE_DIR; without a binary the model's part is
left unchecked."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_binary import model_binary  # noqa: E402

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "row_pairs.py")
sys.path.insert(0, os.path.dirname(script))
from row_pairs import differences, percentiles  # noqa: E402


def main():
    near = differences("row_pairs_near.csv.xz")
    assert len(near) == 4096
    for d in (64, 128):
        same_row = [v for (_, distance), v in near.items() if distance == d]
        assert len(same_row) == 2048
        assert percentiles(same_row) == (-11, 0, 11), (d, percentiles(same_row))
    scan = differences("row_pairs_scan.csv.xz")
    assert sorted(d for _, d in scan) == [64] + [128 * p for p in range(1, 4096)]
    assert percentiles(scan.values()) == (-11, 0, 11)
    assert sum(abs(v) > 25 for v in scan.values()) == 1
    one_order = differences("row_pairs_one_order.csv.xz")
    assert sorted(d for _, d in one_order) == sorted(d for _, d in scan)
    beyond = [v for v in one_order.values() if abs(v) > 25]
    assert (len(beyond), min(beyond), max(beyond)) == (475, -445, 454), (len(beyond), min(beyond), max(beyond))
    # The H200 (h200/row_pairs_*.csv.xz, the same probe and passes, 2026-11-28): the same.
    near = differences("row_pairs_near.csv.xz", "h200")
    assert [percentiles([v for (_, d), v in near.items() if d == distance]) for distance in (64, 128)] == [
        (-10, 0, 10), (-10, -1, 9)]
    assert percentiles(near.values()) == (-10, 0, 10)
    scan = differences("row_pairs_scan.csv.xz", "h200")
    assert len(scan) == 4096 and sum(abs(v) > 25 for v in scan.values()) == 3
    print("row_pairs: a line after one 64-128 B away in its row: median 0 cycles sooner (p10 -11, p90 +11); "
          "no distance to 512 KB differs by more than 25 cycles but one of 4,096 (in one page order: 475); "
          "the H200 the same (p10 -10, p90 +10; 3 of 4,096)")
    binary = model_binary("row_pairs.py's model difference")
    if binary is not None:
        r = subprocess.run([sys.executable, script, binary], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[0].split() == ["H100_p10", "H100_median", "H100_p90", "model_near_minus_far"], lines[0]
        # The same numbers from the script; the model's open row, like the H100's, saves nothing.
        assert lines[1].split() == ["-11", "0", "11", "1.9"], lines[1]
        r = subprocess.run([sys.executable, script, binary, "--gpu", "h200"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines()[1].split() == ["-10", "0", "10", "4.9"], r.stdout
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
