"""h100-measured/dram_spacing.csv: the H100's DRAM utilisations that docs/model.md quotes (the
two curves its DRAM model does not have yet: 64-byte pieces farther apart, and writes' share of
the traffic) follow from the committed ncu rows: DRAM's bytes read and written over
gpu__time_duration, as a share of the peak device.csv's bus gives (5120 bits x 5238 MT/s)."""
import csv
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
data = os.path.join(source, "analysis", "validation", "data", "h100-measured", "dram_spacing.csv")
PEAK = 5120 / 8 * 5238e6  # bytes a second
# stride -> % of peak as docs/model.md quotes it (strides 3-7: writes' share; 24-768: 64-byte
# pieces 4 x stride bytes apart).
QUOTED = {3: 87.4, 5: 92.1, 6: 91.3, 7: 90.8, 24: 85.4, 40: 80.6, 48: 78.0, 80: 66.3, 96: 65.7, 160: 62.1,
          192: 61.4, 384: 59.2, 768: 55.9}


def main():
    with open(data) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    seen = {}
    for r in rows:
        stride = int(r["params"].split("stride=")[1])
        moved = float(r["dram__bytes_read.sum"]) + float(r["dram__bytes_write.sum"])
        seen[stride] = round(moved / (float(r["gpu__time_duration.sum"]) * 1e-9) / PEAK * 100, 1)
    assert seen == QUOTED, seen
    with open(os.path.join(source, "docs", "model.md")) as f:
        model_md = f.read()
    for value in QUOTED.values():
        assert f"{value}" in model_md, value
    print("dram_spacing.csv: docs/model.md's percentages follow from the committed rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
