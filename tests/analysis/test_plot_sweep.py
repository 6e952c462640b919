"""analysis/plots/warpsim_plot.py on small sweeps: the PNG files exist and the matplotlib objects
carry the file's own numbers and labelled axes (not pixels).

A synthetic-runner sweep (WARPSIM_SWEEP_RUNNER=synthetic: every kind of study in milliseconds,
with refused points) and the real smoke.ini (which has no hit_ratio or offset study, so those
plots are skipped with a note). Run by ctest with WARPSIM_BINARY and WARPSIM_SOURCE_DIR; exit 77
means skipped (no binary, or no h5py/matplotlib).
"""
import io
import os
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

SKIP = 77
SPEC = """[sweep]
seed = 3

[study unroll]
arch = kepler-k20x, hopper-h100
kernel = readOffsetUnroll
n = 4096
set.sm.max_threads_per_block = 512   # so block 1024 is refused: failed points
block = 128, 256, 1024
unroll = 1, 2
offset = 0, 1, 32

[study persist]
arch = hopper-h100
kernel = persistKernel
hit_ratio = 0..1 step 0.5
persist_bytes = 1M, 2M
window_bytes = 4M
"""


def ensure_modules():
    try:
        import h5py, matplotlib, numpy  # noqa: F401
    except ImportError as e:
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            os.execv(system, [system] + sys.argv)
        print(f"skipped: {e} (install python3-h5py python3-matplotlib python3-numpy)")
        sys.exit(SKIP)


def sweep(binary, spec_path, out, synthetic):
    env = dict(os.environ)
    if synthetic:
        env["WARPSIM_SWEEP_RUNNER"] = "synthetic"
    subprocess.run([binary, "sweep", spec_path, "-o", out, "-j", "2", "--progress", "none"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def columns(path):
    import h5py
    with h5py.File(path, "r") as f:
        out = {}
        for name, d in f.items():
            if isinstance(d, h5py.Dataset) and d.ndim == 1:
                v = d[()]
                out[name] = [x.decode() if isinstance(x, bytes) else x for x in v]
        return out


def rows_where(c, **equal):
    return [i for i in range(len(c["point"])) if all(c[k][i] == v for k, v in equal.items())]


def check_heatmap(fig, c):
    import numpy as np
    ax = fig.axes[0]
    assert ax.get_xlabel() == "block (threads)", ax.get_xlabel()
    assert ax.get_ylabel() == "unroll (loads per thread)", ax.get_ylabel()
    assert len(ax.get_images()) == 1
    assert fig.axes[1].get_ylabel() == "time (ms)"  # the colour bar
    data = ax.get_images()[0].get_array()
    assert data.shape == (2, 3)  # unroll x block
    failed = 0
    for i, unroll in enumerate([1, 2]):
        for j, block in enumerate([128, 256, 1024]):
            (r,) = rows_where(c, study="unroll", arch="hopper-h100", block=block, unroll=unroll, offset=0)
            if c["status"][r] == 0:
                assert data[i, j] == c["time_ms"][r], (unroll, block)
            else:
                assert np.ma.is_masked(data[i, j]), (unroll, block)
                failed += 1
    assert failed == 2  # block 1024 at both unrolls: blank cells, not zeros
    assert "offset=0" in ax.get_title()


def check_hit_ratio(fig, c):
    ax = fig.axes[0]
    assert ax.get_xlabel() == "hit_ratio (fraction)" and ax.get_ylabel() == "time (ms)"
    lines = ax.get_lines()
    assert len(lines) == 2  # one per persist_bytes
    for line, persist in zip(lines, [1 << 20, 2 << 20]):
        assert line.get_label() == f"persist_bytes = {persist >> 20} MiB"
        rows = rows_where(c, study="persist", persist_bytes=persist)
        assert list(line.get_xdata()) == [c["hit_ratio"][r] for r in rows]
        assert list(line.get_ydata()) == [c["time_ms"][r] for r in rows]


def check_efficiency(fig, c):
    ax = fig.axes[0]
    assert ax.get_xlabel() == "offset (elements)" and ax.get_ylabel() == "efficiency (%)"
    assert len(ax.containers) == 4  # {gld, gst} x {kepler, hopper}
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["gld kepler-k20x", "gst kepler-k20x", "gld hopper-h100", "gst hopper-h100"], labels
    gld_hopper = [bar.get_height() for bar in ax.containers[2]]
    expected = [c["gld_efficiency"][rows_where(c, study="unroll", arch="hopper-h100", block=128, unroll=1,
                                                offset=o)[0]] for o in (0, 1, 32)]
    assert gld_hopper == expected, (gld_hopper, expected)


def check_roofline(fig, c, study, arch, issue_peak, dram_peak):
    """The points are the study's finished points on `arch` with DRAM traffic, at (instructions per
    DRAM byte, instructions per second), one colour per limiter; the roof is the preset's."""
    import numpy as np
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_xlabel() == "operational intensity (warp instructions per DRAM byte)", ax.get_xlabel()
    rows = [r for r in rows_where(c, study=study, arch=arch, status=0)
            if c["dram_read_bytes"][r] + c["dram_write_bytes"][r] > 0]
    expected = sorted((c["warp_instructions"][r] / (c["dram_read_bytes"][r] + c["dram_write_bytes"][r]),
                       c["warp_instructions"][r] / (c["time_ms"][r] / 1e3)) for r in rows)
    drawn = sorted(tuple(p) for coll in ax.collections for p in coll.get_offsets())
    assert np.allclose(drawn, expected, rtol=1e-12), (drawn, expected)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("roof: ")
    assert sorted(labels[1:]) == sorted({c["limiter"][r] or "(no limiter)" for r in rows}), labels
    roof = ax.get_lines()[0]
    assert np.isclose(max(roof.get_ydata()), issue_peak) and np.isclose(roof.get_ydata()[0] / roof.get_xdata()[0], dram_peak)


def main():
    ensure_modules()
    binary = os.environ.get("WARPSIM_BINARY")
    if not binary:
        print("skipped: WARPSIM_BINARY is not set (run through ctest)")
        return SKIP
    source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    sys.path.insert(0, os.path.join(source, "analysis", "plots"))
    import matplotlib.pyplot as plt
    import warpsim_plot

    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "plots.ini")
        with open(spec, "w") as f:
            f.write(SPEC)
        results = os.path.join(tmp, "plots.h5")
        sweep(binary, spec, results, synthetic=True)
        c = columns(results)

        notes = []
        made = dict(warpsim_plot.make_plots(results, os.path.join(tmp, "png"), note=notes.append))
        names = sorted(os.path.basename(p) for p in made)
        assert names == sorted([
            "heatmap_unroll_kepler-k20x_readOffsetUnroll.png", "heatmap_unroll_hopper-h100_readOffsetUnroll.png",
            "efficiency_unroll_readOffsetUnroll.png", "heatmap_persist_hopper-h100_persistKernel.png",
            "hit_ratio_persist_hopper-h100_persistKernel.png", "roofline_unroll_kepler-k20x.png",
            "roofline_unroll_hopper-h100.png", "roofline_persist_hopper-h100.png"]), names
        for png in made:
            assert os.path.getsize(png) > 0, png
        assert notes == [], notes
        by_name = {os.path.basename(p): fig for p, fig in made.items()}
        check_heatmap(by_name["heatmap_unroll_hopper-h100_readOffsetUnroll.png"], c)
        check_hit_ratio(by_name["hit_ratio_persist_hopper-h100_persistKernel.png"], c)
        check_efficiency(by_name["efficiency_unroll_readOffsetUnroll.png"], c)
        # The presets' peaks: H100 132 SMs x 4 schedulers x 1 dispatch x 1.98 GHz, 5120 bits x 5238 MT/s;
        # K20X 14 x 4 x 2 x 732 MHz, 384 bits x 5200 MT/s (models/presets/*.ini).
        check_roofline(by_name["roofline_unroll_hopper-h100.png"], c, "unroll", "hopper-h100",
                       132 * 4 * 1 * 1.98e9, 5120 / 8 * 5238e6)
        check_roofline(by_name["roofline_unroll_kepler-k20x.png"], c, "unroll", "kepler-k20x",
                       14 * 4 * 2 * 0.732e9, 384 / 8 * 5200e6)
        plt.close("all")

        # The real simulator on smoke.ini: one heatmap; no hit_ratio or offset study, so those are skipped.
        smoke = os.path.join(tmp, "smoke.h5")
        sweep(binary, os.path.join(source, "sweeps", "specs", "smoke.ini"), smoke, synthetic=False)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = warpsim_plot.main([smoke, "-o", os.path.join(tmp, "smoke-png")])
        assert code == 0
        printed = out.getvalue().split()
        assert [os.path.basename(p) for p in printed] == ["heatmap_smoke_hopper-h100_readOffsetUnroll.png",
                                                          "roofline_smoke_hopper-h100.png"], printed
        assert all(os.path.exists(p) for p in printed)
        assert "skipped hit_ratio curves" in err.getvalue() and "skipped efficiency bars" in err.getvalue()

        # Not a result file: exit 2 and the file named.
        text = os.path.join(tmp, "notes.h5")
        with open(text, "w") as f:
            f.write("hello\n")
        # Damaged result files (the recipes the sweep tests use on shards): exit 2 and the file
        # named, never a traceback.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sweeps"))
        import sweeptest
        damaged = list(sweeptest.damaged_copies(results, tmp).values())
        for bad in [text, os.path.join(tmp, "missing.h5")] + damaged:
            err = io.StringIO()
            with redirect_stderr(err):
                assert warpsim_plot.main([bad, "-o", tmp]) == 2
            assert bad in err.getvalue(), err.getvalue()
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
