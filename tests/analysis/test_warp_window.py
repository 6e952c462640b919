"""h200/warp_window*: what ncu's sm__warps_active counts of a warp beyond its first and last
instruction is a constant a warp, not a share of its life. A copy's warps spinning 0, 2,000 or
8,000 cycles after their store are counted 52-79 cycles beyond their records, warps that touch no
memory 161 (with either spin): spin as long as it may, the extra stays, so the model may count
each warp from its start to its own exit (docs/model.md, "A write queue and the bus's turns")."""
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import warp_window  # noqa: E402


def main():
    cases = warp_window.cases(os.path.join(source, "analysis", "validation", "data", "h200"))
    copies = [cases[f"copy_spin{s}"] for s in (0, 2000, 8000)]
    alone = [cases[f"alone_spin{s}"] for s in (2000, 8000)]
    # The spins lengthen the warps by what they spin (records and ncu alike).
    assert copies[2]["records"] - copies[0]["records"] > 7500, copies
    assert alone[1]["records"] - alone[0]["records"] > 5900, alone
    # What ncu counts beyond them grows by under 1% of what the spin adds to the warps: a constant a
    # warp, not the 4-12% share of its life store_acks' copies suggested (that would be 240-720
    # cycles more at the longest spin), and under 200 cycles.
    for group in (copies, alone):
        added = group[-1]["records"] - group[0]["records"]
        assert abs(group[-1]["extra"] - group[0]["extra"]) < 0.01 * added, group
        assert all(0 < c["extra"] < 200 for c in group), group
    print(f"test_warp_window: ncu counts {[round(c['extra']) for c in copies]} cycles a warp beyond a copy's records, "
          f"{[round(c['extra']) for c in alone]} beyond warps that touch no memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
