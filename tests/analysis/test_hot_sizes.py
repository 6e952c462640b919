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


def written_mb():
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out = {}
    for r in rows:
        p = dict(kv.split("=") for kv in r["params"].split(";"))
        out[(int(p["hotMB"]), int(p["setaside"]) > 0)] = float(r["dram__bytes_write.sum"]) / 1e6
    return out


def main():
    w = written_mb()
    assert len(w) == 20, sorted(w)
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
