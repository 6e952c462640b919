"""analysis/validation/occupancy_curve.py on h200/occupancy_curve.csv and store_acks_curve.csv.xz:
readOffset at n = 2^26 with room for 1-4 blocks of 512 threads an SM. What the H200 shows, which
docs/model.md sets beside the model (`occupancy_curve.py --warpsim`): with a quarter of the warps
the copy takes 3.1x as long, not 4x (at one block an SM it is bound by its latency, at four by
DRAM); a block's slot stands empty ~495-540 cycles whatever the load, as store_acks found at full
occupancy; and a block's warps end far apart even at light load, its span 240 cycles and more
above a warp's life at every K, while a warp lives longer as more warps share the memory system."""
import os
import subprocess
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "occupancy_curve.py")


def main():
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = [[float(x) for x in line.split()] for line in r.stdout.splitlines()]
    assert [row[0] for row in rows] == [1, 2, 3, 4], r.stdout
    times = [row[1] for row in rows]
    occupancy = [row[2] for row in rows]
    lives, spans, gaps = [row[4] for row in rows], [row[5] for row in rows], [row[6] for row in rows]
    assert all(a > b for a, b in zip(times, times[1:])), times
    assert 2.5 < times[0] / times[3] < 4, times
    assert all(a < b for a, b in zip(occupancy, occupancy[1:])), occupancy
    assert all(400 <= g <= 600 for g in gaps), gaps
    assert all(a < b for a, b in zip(lives, lives[1:])), lives
    assert all(s - l >= 200 for s, l in zip(spans, lives)), (spans, lives)
    print(f"occupancy_curve.py: times {times} us, slot gaps {gaps}, lives {lives}, spans {spans}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
