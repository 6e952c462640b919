"""analysis/validation/block_slots.py: the block spans, slot gaps and occupancies the model's
comments quote (models/memory/l2_cache.hpp, models/core/sm.hpp, analysis/validation/
known_gaps.cpp) follow from the committed H100 records; the model's `run --timeline` files read
the same way; a file that is no timeline is refused with its name. For the calibrated persistKernel
(../shared/calibration/h100/persist_timeline.csv.xz beside persist_10MB.csv's ncu rows), ncu's
achieved occupancy is the warps' own spans, not their blocks' (docs/model.md, "Occupancy as ncu
counts it"), and a block's warps end thousands of cycles apart.

Run by ctest with WARPSIM_BINARY and WARPSIM_SOURCE_DIR; exit 77 means skipped (no binary)."""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis_script import assert_refuses, key_values  # noqa: E402
from model_binary import model_binary  # noqa: E402

SKIP = 77
source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "block_slots.py")
data = os.path.join(source, "analysis", "validation", "data", "h100-measured")


def summary(*args):
    return key_values(script, *args)


def near(value, expected, within=0.5):
    assert abs(value - expected) <= within, (value, expected)


def persist_timeline(calibration):
    """Every warp of every 32nd block of persistKernel (1024 threads, 2 blocks an SM), against the
    same configurations' ncu rows: each warp to its own exit lies within 0.05 of ncu, its block's
    end 0.25 or more above it."""
    ncu = {}
    with open(os.path.join(calibration, "persist_10MB.csv")) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            ncu.setdefault(row["params"], float(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100)
    cases = {"persist_nowindow": ("persistMB=10;hitRatio=-1.000;window=0", 2825, 843),
             "persist_hitRatio_0.00": ("persistMB=10;hitRatio=0.000;window=1", 3616, 1028),
             "persist_hitRatio_1.00": ("persistMB=10;hitRatio=1.000;window=1", 2581, 549)}
    for case, (params, life_median, ends_apart_median) in cases.items():
        s = summary(os.path.join(calibration, "persist_timeline.csv.xz"), "--case", case, "--every", "32",
                    "--slots", "2")
        assert s["blocks"] == 2048
        assert (s["life_median"], s["ends_apart_median"]) == (life_median, ends_apart_median)
        near(s["occupancy_own_exit_kernel"], ncu[params], 0.05)
        assert s["occupancy_block_end_kernel"] > ncu[params] + 0.25, (case, s)


def main():
    # The H100: first and last warp of every block of readOffset at n = 2^26.
    records = os.path.join(data, "timeline_readOffset.csv.xz")
    s = summary(records, "--case", "readOffset_lg26_offset0", "--first-last")
    assert s["blocks"] == 131072
    near(s["span_mean"], 1768)
    assert s["gap_median"] == 679
    assert "occupancy_block_end" not in s  # two warps of sixteen say nothing of occupancy
    assert (s["life_p10"], s["life_median"], s["life_p90"], s["life_p99"]) == (1107, 1516, 2055, 2977)
    assert (s["ends_apart_median"], s["ends_apart_p90"]) == (291, 766)
    s = summary(records, "--case", "readOffset_lg26_offset11", "--first-last")
    near(s["span_mean"], 1851)
    assert s["gap_median"] == 642
    # Every warp of every 8th block: ncu's 0.756 lies by the blocks' spans, not the warps' own.
    s = summary(os.path.join(data, "timeline_cold.csv.xz"), "--case", "readOffset_lg26_offset0_every8", "--every", "8")
    near(s["occupancy_own_exit"], 0.578, 0.0005)
    near(s["occupancy_block_end"], 0.765, 0.0005)
    assert "gap_median" not in s  # an SM's other blocks are not recorded

    persist_timeline(os.path.join(source, "..", "shared", "calibration", "h100"))

    binary = model_binary("the model's timeline")
    if binary is None:
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        timeline = os.path.join(tmp, "t.csv")
        subprocess.run([binary, "run", "--arch", "hopper-h100", "--kernel", "readOffset", "-p", "n=1M",
                        "--timeline", timeline], check=True, capture_output=True)
        s = summary(timeline)
        assert s["blocks"] == 2048
        assert s["occupancy_block_end"] >= s["occupancy_own_exit"] > 0
        assert s["gap_median"] > 0
        assert s["life_p10"] <= s["life_median"] <= s["life_p90"] <= s["life_p99"]
        assert s["ends_apart_median"] <= s["ends_apart_p90"]
        assert_refuses(script, tmp, "a,b\n1,2\n", "bad.csv: not a timeline")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
