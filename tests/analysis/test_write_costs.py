"""analysis/validation/write_costs.py on stridedRead's ncu rows of both Hoppers: the figures
docs/model.md and hopper-h100.ini quote for what a byte written costs in bytes read, and the
shape `dram.writes_in_refresh` rests on (a write cheaper than a read while few are written, dearer
from a third on, rising with the share written on both GPUs)."""
import os
import subprocess
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "write_costs.py")


def quoted(costs):
    """The costs as the documents quote them, by increasing share written: 'a, b, c and d'."""
    return ", ".join(costs[:-1]) + " and " + costs[-1]


def main():
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    by_gpu = {}
    for line in r.stdout.splitlines():
        gpu, stride, share, _, cost = line.split()
        by_gpu.setdefault(gpu, []).append((float(share), cost))
    assert sorted(by_gpu) == ["h100", "h200"], r.stdout
    texts = {name: open(os.path.join(source, *name.split("/"))).read()
             for name in ("docs/model.md", "models/presets/hopper-h100.ini")}
    for gpu, rows in by_gpu.items():
        rows.sort()
        shares = [share for share, _ in rows]
        costs = [float(cost) for _, cost in rows]
        assert len(rows) == 4 and 0.09 < shares[0] and shares[-1] < 0.5, rows
        assert all(a < b for a, b in zip(costs, costs[1:])), (gpu, rows)
        assert costs[0] < 1 < costs[-1], (gpu, rows)
        for name, text in texts.items():
            assert quoted([cost for _, cost in rows]) in text, f"{name} does not quote {gpu}'s costs {quoted([c for _, c in rows])}"
    print("write_costs.py: " + "; ".join(f"{gpu} {quoted([c for _, c in rows])}" for gpu, rows in sorted(by_gpu.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
