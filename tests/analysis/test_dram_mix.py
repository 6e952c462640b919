"""analysis/validation/dram_mix.py on the H200's h200/dram_mix*.csv: the figures h200/README.md
and docs/model.md quote. Reads alone move 93-95% of the DRAM's peak (ncu) and writes alone 90%
(over one, two or four arrays); every mix moves less than either, falling steadily with the
share of writes from 88% at a fifth to 78% at four fifths. Eight arrays walked at once bring DRAM
traffic the kernel does not ask for, however the arrays are skewed against each other. A model that charges every write the same share of the bus turnarounds
(dram.write_batch) cannot give writes alone more than a mix with reads."""
import os
import subprocess
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "dram_mix.py")

EXPECTED = """\
mix_r1_w0 1 0 0.000 92.9 0.927 1.000 -
mix_r8_w1 8 1 0.199 84.4 0.748 1.021 2.033
mix_r4_w1 4 1 0.199 88.2 0.877 1.000 0.994
mix_r3_w1 3 1 0.249 88.3 0.879 1.000 0.994
mix_r2_w1 2 1 0.332 86.3 0.855 1.000 0.994
mix_r3_w2 3 2 0.399 84.5 0.840 1.000 0.994
mix_r1_w1 1 1 0.499 82.8 0.823 1.000 0.995
mix_r2_w3 2 3 0.599 81.0 0.806 1.000 0.995
mix_r1_w2 1 2 0.666 80.5 0.801 1.000 0.995
mix_r1_w3 1 3 0.749 79.1 0.790 1.000 0.996
mix_r1_w4 1 4 0.799 77.7 0.783 1.000 0.996
mix_r0_w1 0 1 1.000 89.5 0.899 - 0.997
mix_r2_w0 2 0 0.000 94.4 0.937 1.000 -
mix_r4_w0 4 0 0.000 94.7 0.942 1.000 -
mix_r8_w0 8 0 0.083 84.8 0.777 1.018 -
mix_r0_w2 0 2 1.000 89.5 0.891 - 0.997
mix_r0_w4 0 4 1.000 89.9 0.897 - 0.997
mix_r0_w8 0 8 0.997 83.2 0.770 - 1.074
mix_r2_w2 2 2 0.499 82.7 0.819 1.000 0.995
mix_r4_w4 4 4 0.518 78.4 0.729 1.031 1.108
skew mix_r1_w0 1 0 0.000 93.0 0.923 1.000 -
skew mix_r8_w1 8 1 0.200 84.8 0.746 1.020 2.037
skew mix_r4_w1 4 1 0.199 88.1 0.873 1.000 0.994
skew mix_r3_w1 3 1 0.249 88.0 0.871 1.000 0.994
skew mix_r2_w1 2 1 0.332 86.5 0.852 1.000 0.994
skew mix_r3_w2 3 2 0.399 84.7 0.836 1.000 0.995
skew mix_r1_w1 1 1 0.499 82.9 0.820 1.000 0.995
skew mix_r2_w3 2 3 0.599 81.1 0.805 1.000 0.995
skew mix_r1_w2 1 2 0.666 80.5 0.800 1.000 0.995
skew mix_r1_w3 1 3 0.749 79.5 0.789 1.000 0.996
skew mix_r1_w4 1 4 0.799 78.6 0.779 1.000 0.996
skew mix_r0_w1 0 1 1.000 90.1 0.894 - 0.997
skew mix_r2_w0 2 0 0.000 94.1 0.932 1.000 -
skew mix_r4_w0 4 0 0.000 94.2 0.935 1.000 -
skew mix_r8_w0 8 0 0.083 85.4 0.774 1.018 -
skew mix_r0_w2 0 2 1.000 89.8 0.890 - 0.997
skew mix_r0_w4 0 4 1.000 89.3 0.891 - 0.997
skew mix_r0_w8 0 8 0.997 83.0 0.761 - 1.074
skew mix_r2_w2 2 2 0.499 82.5 0.817 1.000 0.995
skew mix_r4_w4 4 4 0.518 78.2 0.726 1.031 1.108
"""


def main():
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == EXPECTED, r.stdout
    lines = r.stdout.splitlines()
    rows = [line.split() for line in lines if not line.startswith("skew ")]
    # The cases whose DRAM traffic is what they ask for (eight arrays or more bring traffic of
    # their own: left out).
    clean = [(float(w), float(pct)) for _, _, _, w, pct, _, read, write in rows
             if all(x == "-" or float(x) < 1.01 for x in (read, write))]
    mixes = sorted((w, pct) for w, pct in clean if 0 < w < 1)
    reads_alone = [pct for w, pct in clean if w == 0.0]
    writes_alone = [pct for w, pct in clean if w == 1.0]
    assert len(mixes) == 10 and len(reads_alone) == 3 and len(writes_alone) == 3, clean
    assert all(pct < min(reads_alone + writes_alone) for _, pct in mixes), (mixes, reads_alone, writes_alone)
    # By write share, each no faster than the one before, within 0.15 point (20% and 25% writes
    # differ by 0.1; the same cases measured again on another H200 differ by up to 0.9).
    assert all(b[1] <= a[1] + 0.15 for a, b in zip(mixes, mixes[1:])), mixes
    # Skewing the arrays against each other leaves the eight-array cases' extra traffic as it was:
    # not their alignment.
    for line in lines:
        name, _, _, w, _, _, read, write = line.split()[1:] if line.startswith("skew ") else line.split()
        eight = name in ("mix_r8_w0", "mix_r0_w8", "mix_r8_w1", "mix_r4_w4")
        extra = any(x != "-" and float(x) > 1.01 for x in (read, write)) or (write == "-" and float(w) > 0.01)
        assert extra == eight, line
    print(f"dram_mix.py: reads alone {reads_alone}%, writes alone {writes_alone}%, mixes {mixes[0][1]}-{mixes[-1][1]}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
