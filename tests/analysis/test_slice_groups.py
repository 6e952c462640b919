"""h200/l2_slice_pairs, l2_slice_blocks, {h100-measured,h200}/load_spread, h200/slice_stalls: a
set-aside's write-backs stall whole L2 slices. The H200 serves the 32 lines of a 4 KB block from 8
slices, {b, b+1, b+4, b+5} each, and the first lines of 128 consecutive blocks from 44 (of 384
from 47); under a set-aside with dirty lines to write back, a block's slow hot
loads come in exactly those fours on both GPUs, answered together long after the block's other
warps; and an observer's L2 hits to four such slices wait up to thousands of cycles while the
set-aside's write-backs go, not at all without the set-aside or without dirty lines
(docs/model.md, "Where a set-aside's loads stall")."""
import collections
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import slice_groups  # noqa: E402


def main():
    data = os.path.join(source, "analysis", "validation", "data")
    groups = slice_groups.slice_groups(os.path.join(data, "h200", "l2_slice_pairs.csv.xz"))
    in_block = sorted([x for x in g if x < 32] for g in groups if any(x < 32 for x in g))
    expected = sorted([b, b + 1, b + 4, b + 5] for b in (0, 2, 8, 10, 16, 18, 24, 26))
    assert in_block == expected, in_block
    # The first lines of 128 blocks: an equivalence of 44 slices, blocks k and k XOR 29 (and 97)
    # the commonest sharers; a map spreading blocks at random would reach ~70 slices of 94.
    classes, shared = slice_groups.block_classes(os.path.join(data, "h200", "l2_slice_blocks.csv.xz"))
    assert len(classes) == 44 and sum(map(len, classes)) == 128 and len(classes[0]) == 6, classes
    xors = collections.Counter(a ^ b for a, b in shared).most_common(2)
    assert sorted(xors) == [(29, 16), (97, 16)], xors
    # Twelve pairs a launch, 384 blocks: the same pairs among the first 128, 47 slices in all, and
    # the two blocks of an aligned 8 KB never in one (they are homed in different halves).
    wide, wide_shared = slice_groups.weighted_classes(os.path.join(data, "h200", "l2_slice_weighted.csv.xz"))
    assert {(a, b) for a, b in wide_shared if b < 128} == shared
    assert len(wide) == 47 and sum(map(len, wide)) == 384 and (len(wide[0]), len(wide[-1])) == (12, 5), wide
    assert not any(k ^ 1 in c for c in wide for k in c), wide
    slice_fours = {tuple(g) for g in expected}
    for gpu in ("h100-measured", "h200"):
        path = os.path.join(data, gpu, "load_spread.csv.xz")
        for case in ("dram_setaside", "persist_setaside"):
            s = slice_groups.stall_groups(path, case)
            c = s["counts"]
            # Four slow loads a block, far more often than three or five; the commonest fours are
            # slices; they come within a few hundred cycles of one another, ~1,000+ after the rest.
            assert c[4] > 5 * max(c[3], c[5]), (gpu, case, c)
            assert all(k in slice_fours for k, _ in s["fours"].most_common(8)), (gpu, case, s["fours"].most_common(8))
            assert s["spread"] < 300 and s["excess"] > 800, (gpu, case, s)
        for case in ("dram", "persist"):  # no set-aside: no such grouping
            c = slice_groups.stall_groups(path, case)["counts"]
            assert c[4] < 2 * max(c[3], c[5]), (gpu, case, c)
    for name in ("slice_stalls.csv.xz", "slice_stalls_repeat.csv.xz"):
        w = slice_groups.observer_waits(os.path.join(data, "h200", name))
        assert max(w["alone"]) < 400 and max(w["dram"]) < 450 and max(w["loads_setaside"]) < 450, name
        slow = sum(1 for x in w["dram_setaside"] if x > 1000) / len(w["dram_setaside"])
        assert 0.05 < slow < 0.5 and max(w["dram_setaside"]) > 2000, (name, slow)
    print(f"test_slice_groups: the H200's slices take {expected[0]}-like fours of a 4 KB block; "
          f"a set-aside's slow loads come in those fours on both GPUs; an observer's hits stall with it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
