"""analysis/validation/launch_sizes.py on h200/sizes*.csv: what docs/model.md says of cold launches
from n = 2^16 to 2^25 on the H200. The two runs agree (within 400 ns or 6%); readOffset at offset 0
and stridedRead at stride 16 take what hopper-h200 gives them up to n = 2^20 with the DRAM model's
read side on (within 80 ns, readOffset at 2^19 aside: -248) as well as off (within 300 ns), so on
the H200 the start rule's move with the read side on does not come from these plain streams; and
the known gap both share: at n = 2^21 the model is 0.3-0.8 us short."""
import os
import subprocess
import sys

from model_binary import model_binary

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
scripts = os.path.join(source, "analysis", "validation")
sys.path.insert(0, scripts)
import launch_sizes  # noqa: E402


def main():
    rows = launch_sizes.measured()
    assert len(rows) == 20, rows
    for kernel, lg, _, mean, (first, second) in rows:
        assert abs(first - second) <= max(400, 0.06 * mean), (kernel, lg, first, second)
    binary = model_binary("the model's launch times by n")
    if binary is None:
        return 0
    r = subprocess.run([sys.executable, os.path.join(scripts, "launch_sizes.py"), "--warpsim", binary],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    off, on = {}, {}
    for line in r.stdout.splitlines():
        kernel, lg, _, _, off_diff, _, on_diff = line.split()
        off[(kernel, int(lg))] = float(off_diff.strip("()"))
        on[(kernel, int(lg))] = float(on_diff.strip("()"))
    for kernel in ("readOffset", "stridedRead"):
        for lg in range(16, 21):
            assert abs(off[(kernel, lg)]) < 300, (kernel, lg, off)
        assert abs(on[(kernel, 20)]) < 80 and abs(on[(kernel, 17)]) < 80, (kernel, on)
        assert all(abs(on[(kernel, lg)]) < 80 for lg in range(16, 21) if (kernel, lg) != ("readOffset", 19)), on
        # The gap: at n = 2^21 both settings fall short of the GPU.
        assert off[(kernel, 21)] < -300 and on[(kernel, 21)] < -300, (kernel, off, on)
    print("launch_sizes.py: plain streams match to n = 2^20 either way; 2^21 short by",
          off[("readOffset", 21)], off[("stridedRead", 21)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
