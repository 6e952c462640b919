"""analysis/validation/streaming_lines.py over h100-measured/ and h200/streaming_lines.csv and
h100-measured/streaming_pressure.csv: the figures docs/model.md ("Which streaming lines the L2
keeps") quotes, and its refusal of a table that is not streaming_lines.cu's."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis_script import assert_refuses, key_values  # noqa: E402

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "streaming_lines.py")
data = os.path.join(source, "analysis", "validation", "data")


# The cases docs/model.md's table quotes, in its order: (label, [(case, hot KB, hitRatio x 1000,
# set aside?)]).
ROWS = [
    ("loads 10 MB by hitRatio", [("loads", 10240, h, True) for h in (0, 250, 500, 750)]),
    ("loads by size", [("loads", kb, 0, True) for kb in (2560, 5120, 20480)]),
    ("rw 10 MB by hitRatio", [("rw", 10240, h, True) for h in (0, 250, 500, 750)]),
    ("rw by size", [("rw", kb, 0, True) for kb in (2560, 5120)]),
    ("no set-aside rw / loads", [(c, 10240, 0, False) for c in ("rw", "loads")]),
]
# Per GPU: the largest set-aside, and each row's kept fractions and kept MiB.
EXPECTED = {
    "h100-measured": (32768000, {
        "loads 10 MB by hitRatio": ([0.124, 0.140, 0.178, 0.294], [1.24, 1.05, 0.89, 0.73]),
        "loads by size": ([0.347, 0.181, 0.064], [0.87, 0.90, 1.29]),
        "rw 10 MB by hitRatio": ([0.133, 0.173, 0.238, 0.394], [1.33, 1.29, 1.19, 0.98]),
        "rw by size": ([0.814, 0.453], [2.03, 2.26]),
        "no set-aside rw / loads": ([0.124, 0.123], [1.24, 1.23]),
    }),
    "h200": (39321600, {
        "loads 10 MB by hitRatio": ([0.146, 0.161, 0.198, 0.310], [1.46, 1.21, 0.99, 0.77]),
        "loads by size": ([0.512, 0.244, 0.071], [1.28, 1.22, 1.43]),
        "rw 10 MB by hitRatio": ([0.197, 0.250, 0.323, 0.473], [1.97, 1.87, 1.62, 1.18]),
        "rw by size": ([0.895, 0.654], [2.24, 3.27]),
        "no set-aside rw / loads": ([0.146, 0.145], [1.46, 1.45]),
    }),
}


def key(case, hot_kb, h1000, set_aside, miss="streaming"):
    return f"{case}:hotKB={hot_kb};h1000={h1000};setaside={set_aside};miss={miss}"


def check(gpu):
    largest, expected = EXPECTED[gpu]
    v = key_values(script, os.path.join(data, gpu, "streaming_lines.csv"))
    assert len(v) == 19 * 3 + 17 * 2, len(v)  # two cases at hitRatio 1 have no streaming lines
    got = {}
    for label, cases in ROWS:
        names = [key(c, kb, h, largest if aside else 0) for c, kb, h, aside in cases]
        got[label] = ([v[n + "/kept"] for n in names], [v[n + "/kept_mib"] for n in names])
    assert got == expected, (gpu, got)
    # Nothing of the hot region is read twice once every line of it persists, or is normal and stored to.
    assert v[key("rw", 10240, 1000, largest) + "/miss_mib"] == 0.0
    assert v[key("rw", 10240, 0, largest, miss="normal") + "/kept"] == 1.0
    return v


def main():
    h100 = check("h100-measured")
    check("h200")
    # streaming_pressure.csv: without a stream that pushes them out, every streaming line stays.
    p = key_values(script, os.path.join(data, "h100-measured", "streaming_pressure.csv"))
    beside = {(kb, mb): p.get(f"loads:hotKB={kb};h1000=0;setaside=32768000;miss=streaming;streamMB={mb}/kept")
              for kb in (2560, 10240) for mb in (1, 4, 16, 64)}
    assert beside == {(2560, 1): 1.0, (2560, 4): 1.0, (2560, 16): 1.0, (2560, 64): None,
                      (10240, 1): 1.0, (10240, 4): 1.0, (10240, 16): 0.798, (10240, 64): None}, beside
    # The loads-alone range the text quotes: about 1 MiB kept on the H100 whatever the number of lines.
    loads_mib = [x for k, x in h100.items() if k.startswith("loads:") and k.endswith("miss=streaming/kept_mib")]
    assert (min(loads_mib), max(loads_mib)) == (0.73, 1.29), loads_mib
    with tempfile.TemporaryDirectory() as d:
        assert_refuses(script, d, "case,params\nrw,hotKB=1\n", "not a streaming_lines.cu table")
        assert_refuses(script, d, "# a comment\ncase,params,dram__bytes_read.sum,gpu__time_duration.sum\nrw,hotKB=x,1,2\n",
                       "bad.csv:3: cannot read")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
