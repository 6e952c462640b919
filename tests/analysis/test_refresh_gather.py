"""analysis/validation/refresh_gather.py: the H100's numbers that h100-measured/README.md quotes for
one warp's gathers of cold lines follow from the committed refresh_gather.csv.xz, and the model's
(hopper-h100, a one-warp trace of 400 such gathers) are the README table's: one line within 2% of
the H100's mean, gathers long by refresh and short without it (the known gaps the README names).

Run by ctest with WARPSIM_BINARY and WARPSIM_SOURCE_DIR; exit 77 means skipped (no binary)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_binary import model_binary  # noqa: E402

SKIP = 77
source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "refresh_gather.py")


def main():
    binary = model_binary("refresh_gather.py's table")
    if binary is None:
        return SKIP
    r = subprocess.run([sys.executable, script, binary], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["stride_bytes", "H100_mean", "H100_median", "H100_waited", "model_step",
                                "model_step_no_refresh"], lines[0]
    rows = {int(f[0]): [float(x) for x in f[1:]] for f in (line.split() for line in lines[1:])}
    # The README's table and its shares of gathers that waited for a refresh.
    assert rows[0] == [698, 713, 0.095, 711, 677], rows[0]
    assert rows[256] == [911, 853, 0.228, 991, 734], rows[256]
    assert rows[4096] == [969, 862, 0.393, 1181, 789], rows[4096]
    # One line: the model's DRAM latency, refresh included, within 2% of the H100's mean.
    assert abs(rows[0][3] / rows[0][0] - 1) < 0.02, rows[0]
    print("refresh_gather.py: the README's numbers, from the committed data and the model")
    return 0


if __name__ == "__main__":
    sys.exit(main())
