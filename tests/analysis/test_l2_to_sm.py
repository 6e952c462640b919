"""h200/l2_to_sm.csv (tools/gpu-probes/l2_to_sm.cu): how many bytes a cycle one SM takes from L2
when few SMs ask, the figure docs/model.md quotes beside the light-load copies: 92-94 bytes a
cycle with one to four SMs reading, and the L2's own rate, shared, once every SM reads (under 40
each)."""
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import measured_csv  # noqa: E402


def main():
    rows = {int(r["blocks"]): float(r["bytes_per_cycle_per_sm"])
            for r in measured_csv.rows(os.path.join(source, "analysis", "validation", "data", "h200", "l2_to_sm.csv"))}
    assert sorted(rows) == [1, 2, 4, 8, 16, 32, 66, 132], rows
    assert all(90 <= rows[b] <= 95 for b in (1, 2, 4)), rows
    assert rows[132] < 40 and all(rows[132] < rows[b] for b in rows if b != 132), rows
    print(f"l2_to_sm.csv: {rows[1]:.1f} bytes a cycle for one SM, {rows[132]:.1f} each with all 132")
    return 0


if __name__ == "__main__":
    sys.exit(main())
