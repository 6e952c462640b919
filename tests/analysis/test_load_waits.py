"""analysis/validation/load_waits.py: the load waits docs/model.md quotes follow from the H100's
records: the calibrated persistKernel's (../shared/calibration/h100/persist_timeline.csv.xz), and
load_spread.cu's (h100-measured/load_spread.csv.xz), where write-backs under a set-aside make the
tail long;
the model's `run --timeline` files read the same way, every warp with its two loads' times; a file
without load times is refused with its name.

Run by ctest with WARPSIM_BINARY and WARPSIM_SOURCE_DIR; exit 77 means skipped (no binary)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis_script import assert_refuses, key_values  # noqa: E402
from model_binary import model_binary  # noqa: E402

SKIP = 77
source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "load_waits.py")
records = os.path.join(source, "..", "shared", "calibration", "h100", "persist_timeline.csv.xz")


def waits(*args):
    return key_values(script, *args)


def quartet(s, name):
    return tuple(s[f"{name}_{q}"] for q in ("p10", "median", "p90", "p99"))


def spread(path, cases):
    """The least and the most p99 / p10 over both waits of `cases`, as docs/model.md rounds them."""
    ratios = [s[f"{name}_p99"] / s[f"{name}_p10"] for s in (waits(path, "--case", c) for c in cases)
              for name in ("first_wait", "second_wait")]
    return round(min(ratios), 1), round(max(ratios), 1)


def main():
    # The H100: every warp of every 32nd block (2,048 blocks of 32 warps).
    s = waits(records, "--case", "persist_nowindow")
    assert s["records"] == 65536
    assert quartet(s, "first_wait") == (642, 1082, 2549, 6330)
    assert quartet(s, "second_wait") == (970, 1505, 2927, 6829)
    s = waits(records, "--case", "persist_hitRatio_1.00")
    assert quartet(s, "first_wait") == (649, 1025, 1884, 3037)
    assert quartet(s, "second_wait") == (955, 1408, 2284, 3381)
    assert waits(records, "--case", "persist_hitRatio_1.00", "--warps", "0,31")["records"] == 2 * 2048
    assert spread(records, ("persist_nowindow", "persist_hitRatio_0.00", "persist_hitRatio_1.00")) == (3.5, 9.9)

    # load_spread.cu: the same work without and with persist_10MB.csv's set-aside.
    spread_file = os.path.join(source, "analysis", "validation", "data", "h100-measured", "load_spread.csv.xz")
    plain, set_aside = waits(spread_file, "--case", "persist"), waits(spread_file, "--case", "persist_setaside")
    assert quartet(plain, "first_wait") == (659, 816, 1042, 1280)
    assert quartet(set_aside, "second_wait") == (1010, 1551, 2947, 6578)
    # Narrow without a set-aside, and with one where nothing is written back (loads only); long
    # where the L2 writes back under it.
    assert spread(spread_file, ("resident", "resident_loads", "dram_loads", "dram", "persist")) == (1.4, 2.2)
    assert spread(spread_file, ("dram_loads_setaside", "persist_loads_setaside")) == (1.8, 2.1)
    assert spread(spread_file, ("dram_setaside", "persist_setaside")) == (4.0, 8.3)
    assert spread(spread_file, ("resident_setaside",)) == (2.5, 2.6)

    binary = model_binary("the model's load times")
    if binary is None:
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        timeline = os.path.join(tmp, "t.csv")
        # 256 blocks of 1024 threads: one wave and a little more on 132 SMs.
        subprocess.run([binary, "run", "--arch", "hopper-h100", "--kernel", "persistKernel",
                        "-p", "data_bytes=1048576", "-p", "persist_bytes=65536", "--timeline", timeline],
                       check=True, capture_output=True)
        s = waits(timeline)
        assert s["records"] == 256 * 32, s
        for name in ("first_wait", "second_wait"):
            q = quartet(s, name)
            assert list(q) == sorted(q) and q[0] > 0, (name, q)
        assert_refuses(script, tmp, "launch,block,warp,smid,t_start,t_end\n1,0,0,0,10,20\n",
                       "bad.csv: not a timeline with load times")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
