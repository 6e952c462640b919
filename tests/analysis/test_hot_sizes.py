"""h100-measured/hot_sizes.csv (load_spread.cu hot-sizes under ncu): what docs/model.md ("Which
dirty lines the L2 writes back early") reads from it. persistKernel over hot regions of 1-24 MB
beside a 256 MB stream writes each streamed line back once while its hot lines stay dirty between
stores, and writes the hot lines back at every store once 2H bytes of other lines come between
two stores to one: without a set-aside from 10-16 MB, with the 31.25 MB set-aside from 1-8 MB."""
import csv
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
path = os.path.join(source, "analysis", "validation", "data", "h100-measured", "hot_sizes.csv")


def by_case(column, scale):
    """{(hot MB, set aside?): column / scale} over the file's rows."""
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out = {}
    for r in rows:
        p = dict(kv.split("=") for kv in r["params"].split(";"))
        out[(int(p["hotMB"]), int(p["setaside"]) > 0)] = float(r[column]) / scale
    return out


def written_mb():
    return by_case("dram__bytes_write.sum", 1e6)


def main():
    w = written_mb()
    assert len(w) == 20, sorted(w)
    # docs/model.md's table, MB written at 1, 2, 4, 6, 8, 10, 12, 16 and 20 MB hot (rounded half up).
    sizes = (1, 2, 4, 6, 8, 10, 12, 16, 20)
    assert [int(w[(mb, False)] + 0.5) for mb in sizes] == [247, 249, 251, 253, 259, 280, 374, 511, 514]
    assert [int(w[(mb, True)] + 0.5) for mb in sizes] == [290, 320, 434, 493, 525, 531, 531, 531, 531]
    ms = by_case("event_median_ms", 1)  # the set-aside launches' times it quotes, without ncu
    assert [round(ms[(mb, True)], 3) for mb in (1, 2, 4, 8)] == [0.542, 0.548, 0.608, 0.722]
    stream = w[(1, False)]  # the streamed lines, each written back once (less what stays dirty at the end)
    # Without a set-aside: the streamed data alone up to 8 MB, every hot store from 16 MB on.
    for mb in (2, 4, 6, 8):
        assert w[(mb, False)] < 1.05 * stream, (mb, w[(mb, False)])
    assert 1.1 * stream < w[(12, False)] < 1.9 * stream
    for mb in (16, 20, 24):
        assert w[(mb, False)] > 1.9 * stream, (mb, w[(mb, False)])
    # With the set-aside the hot lines go back earlier: already above the stream at 1 MB, every
    # store from 8 MB on; at each hot size up to 12 MB more than without.
    assert w[(1, True)] > 1.1 * stream
    for mb in (8, 10, 12, 16):
        assert w[(mb, True)] > 1.95 * stream, (mb, w[(mb, True)])
    for mb in (1, 2, 4, 6, 8, 10, 12):
        assert w[(mb, True)] > w[(mb, False)] + 10, mb
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
