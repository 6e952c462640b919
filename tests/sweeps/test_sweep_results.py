"""The result file as users load it: h5py, pandas, xarray (h5netcdf); -j independence."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xarray as xr  # noqa: E402

METRICS = ["warp_instructions", "ipc", "achieved_occupancy", "gld_requests", "gld_sectors", "gld_transactions",
           "gld_efficiency", "gst_requests", "gst_sectors", "gst_transactions", "gst_efficiency", "l1_hit_rate",
           "l2_hit_rate", "dram_read_bytes", "dram_write_bytes", "shared_bank_conflicts", "replays",
           "dual_issue_fraction", "theoretical_occupancy", "waves"] + [
    "utilization_" + u for u in ("issue", "int", "fp32", "fp64", "sfu", "ldst", "tensor", "control", "l1_wavefronts",
                                 "l1_sectors", "shared", "l2", "dram")]
# Words, not numbers (CONTRACT.md: the limiter); variable-length UTF-8 strings.
TEXTS = ["limiter", "limiter_evidence", "occupancy_limit"]
LIMITERS = {"dram-bandwidth", "l2-bandwidth", "l1-lsu", "shared-banks", "issue", "latency", "barrier", "tail", "launch"}


def check_smoke(path):
    with h5py.File(path, "r") as f:
        assert f.attrs["schema"] == "warpsim-sweep/1"
        for a in ["warpsim_version", "git_commit", "created_utc", "command_line", "seed"]:
            assert a in f.attrs, a
        assert f.attrs["seed"] == 1
        assert "[study smoke]" in f["config"][()].decode()
        assert "gpu.sms = 132" in f["config"].attrs["preset hopper-h100"]
        for col in ["point", "study", "arch", "kernel", "block", "unroll", "cycles", "time_ms", "status", "message",
                    "wall_s"] + METRICS + TEXTS:
            d = f[col]
            assert d.shape == (12,), col
            if col != "point":
                assert st.dim_names(d) == ["point"], col
            assert d.compression == "gzip" and d.shuffle, col
        assert f["block"].dtype == np.int64
        assert list(f["block"][:4]) == [64, 64, 64, 64] and list(f["unroll"][:4]) == [1, 2, 4, 8]
        assert (f["status"][:] == 0).all()
        assert f["grid/cycles"].shape == (3, 4)
        assert st.dim_names(f["grid/cycles"]) == ["block", "unroll"]
        assert h5py.check_string_dtype(f["limiter"].dtype).encoding == "utf-8"
        assert {v.decode() for v in f["limiter"][()]} <= LIMITERS
        assert set(f["occupancy_limit"].asstr()[()]) == {"threads"}  # as the synthetic runner says
        assert f["limiter_evidence"].asstr()[0].startswith('synthetic, "point"\t')  # comma, quote, tab intact
        assert f["grid/limiter"].shape == (3, 4) and st.dim_names(f["grid/limiter"]) == ["block", "unroll"]

    ds = xr.open_dataset(path, engine="h5netcdf")
    assert ds.sizes["point"] == 12
    df = ds.drop_vars("config").to_dataframe()
    assert list(df["arch"].unique()) == ["hopper-h100"]
    assert df["block"].tolist() == [64] * 4 + [128] * 4 + [256] * 4
    grid = xr.open_dataset(path, group="grid", engine="h5netcdf")
    assert dict(grid.sizes) == {"block": 3, "unroll": 4}
    assert grid["block"].values.tolist() == [64, 128, 256]
    # The grid and the columns hold the same numbers.
    for m in ["cycles", "ipc", "l2_hit_rate"]:
        assert np.array_equal(grid[m].values.ravel(), df[m].to_numpy(dtype=float)), m
    assert float(grid["ipc"].sel(block=128, unroll=4)) == float(df.query("block == 128 and unroll == 4")["ipc"].iloc[0])
    # The limiter over the grid reads back as words, the same as its column.
    assert grid["limiter"].values.ravel().tolist() == df["limiter"].tolist()
    assert str(grid["limiter"].sel(block=256, unroll=8).values) in LIMITERS
    # pandas straight from h5py columns, as the README shows.
    with h5py.File(path, "r") as f:
        frame = pd.DataFrame({k: f[k][()] for k in ["block", "unroll", "cycles"]})
    assert len(frame) == 12


def check_two_studies(path):
    with h5py.File(path, "r") as f:
        assert set(f["grid"].keys()) == {"unroll", "persist"}
        status = f["status"][:]
        assert (status[:32].reshape(2, 2, 4, 2)[:, 1] == 1).all()  # block 1024 cannot run
        assert (status[32:] == 0).all()
        msg = f["message"][8].decode()
        assert "exceeds the 512 threads per block" in msg, msg
        # Columns a study does not set are NaN there (numbers) or "" (strings).
        assert np.isnan(f["hit_ratio"][0]) and f["hit_ratio"][32] == 0.0
        assert f["block"].dtype == np.float64 and np.isnan(f["block"][40])
    u = xr.open_dataset(path, group="grid/unroll", engine="h5netcdf")
    assert list(u.dims) == ["arch", "block", "unroll", "offset"] or set(u.dims) == {"arch", "block", "unroll", "offset"}
    assert u["arch"].values.tolist() == ["kepler-k20x", "hopper-h100"]
    assert np.isnan(u["cycles"].sel(arch="hopper-h100", block=1024)).all()
    # A failed point has no limiter: "" in its column and over the grid.
    assert (u["limiter"].sel(block=1024) == "").all()
    with h5py.File(path, "r") as f:
        assert f["limiter"].asstr()[8] == ""
    assert (u["status"].sel(block=1024) == 1).all()
    p = xr.open_dataset(path, group="grid/persist", engine="h5netcdf")
    assert dict(p.sizes) == {"hit_ratio": 5, "persist_bytes": 3}
    assert p["hit_ratio"].values.tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert p["persist_bytes"].values.tolist() == [1 << 20, 2 << 20, 4 << 20]


def main():
    d = st.tempdir("results")
    one, four = os.path.join(d, "j1.h5"), os.path.join(d, "j4.h5")
    r = st.sweep(st.spec("smoke.ini"), "-o", one, "-j", 1, "--progress", "none")
    assert r.stdout == "", "nothing but results on stdout"
    assert "finished 12/12" in r.stderr
    st.sweep(st.spec("smoke.ini"), "-o", four, "-j", 4, "--progress", "log")
    check_smoke(one)
    st.assert_same_results(one, four)
    assert not os.path.exists(one + ".journal"), "the journal goes once the file is written"

    spec = st.write(os.path.join(d, "two.ini"), st.TWO_STUDIES)
    a, b = os.path.join(d, "a.h5"), os.path.join(d, "b.h5")
    st.sweep(spec, "-o", a, "-j", 1)
    st.sweep(spec, "-o", b, "-j", 3)
    check_two_studies(a)
    st.assert_same_results(a, b)
    print("ok")


if __name__ == "__main__":
    main()
