"""h200/l2_partition_lines.csv.xz (tools/gpu-probes/l2_partitions.cu lines), read by
analysis/validation/partition_lines.py: the figures docs/model.md quotes beside the model's line
homes ("Two L2 partitions"): neighbouring lines homed in one half (98%), every aligned 8 KB split
evenly, and a cold miss with a far home ~180 cycles longer than one with a near home."""
import os
import sys
import tempfile

from analysis_script import assert_refuses, key_values

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(source, "analysis", "validation", "partition_lines.py")


def main():
    k = key_values(SCRIPT)
    assert 0.49 <= k["far_share"] <= 0.51, k
    assert 0.97 <= k["same_half_1"] <= 0.99 and k["same_half_2"] > 0.95, k
    assert k["same_half_64"] < 0.3, k  # the two 4 KB halves of an aligned 8 KB: mostly opposite halves
    assert 0.45 <= k["aligned_64_far_min"] and k["aligned_64_far_max"] <= 0.55, k
    gap = k["cold_far_p50"] - k["cold_near_p50"]
    assert 150 <= gap <= 220, k
    with tempfile.TemporaryDirectory() as d:
        assert_refuses(SCRIPT, d, "line,cold,0,1,500\n", "no 'other_far_half' rows")
        assert_refuses(SCRIPT, d, "line,cold,0,x,500\n", "malformed row")
    print(f"l2_partition_lines: {k['same_half_1']:.3f} of neighbours in one half, far home +{gap:.0f} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
