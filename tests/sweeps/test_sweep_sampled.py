"""A sweep with `sample = on`: its points run sampled, and the result file says so per point
(sampled, detail_fraction, time_error_pct) and per column (when_sampled: exact or extrapolated),
in the root columns and in the sampled studies' /grid; shards merge them back. Synthetic runner:
it reports a quarter simulated in detail and 0.5% of time error for every sampled point."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402

SPEC = """[sweep]
sample = on

[study big]
arch = hopper-h100
kernel = readOffset
n = 64M, 256M
offset = 0, 1

[study small]
sample = off
arch = kepler-k20x
kernel = readOffset
block = 128, 256
"""


def check(path):
    with h5py.File(path, "r") as f:
        assert list(f["sampled"][:]) == [1, 1, 1, 1, -1, -1], f["sampled"][:]
        assert list(f["detail_fraction"][:4]) == [0.25] * 4 and np.isnan(f["detail_fraction"][4:]).all()
        assert list(f["time_error_pct"][:4]) == [0.5] * 4 and np.isnan(f["time_error_pct"][4:]).all()
        assert st.dim_names(f["sampled"]) == ["point"]
        assert f["cycles"].attrs["when_sampled"] == "extrapolated"
        assert f["time_ms"].attrs["when_sampled"] == "extrapolated"
        assert f["dram_read_bytes"].attrs["when_sampled"] == "extrapolated"
        assert f["gld_sectors"].attrs["when_sampled"] == "exact"
        assert f["warp_instructions"].attrs["when_sampled"] == "exact"
        config = f["config"][()].decode()
        assert config.count("sample = on") == 1, config  # the big study's; small is off
        assert "sampled" in f["grid/big"] and "sampled" not in f["grid/small"]
        assert f["grid/big/time_ms"].attrs["when_sampled"] == "extrapolated"
    big = xr.open_dataset(path, group="grid/big", engine="h5netcdf")
    assert big["sampled"].values.tolist() == [[1, 1], [1, 1]]
    assert float(big["detail_fraction"].sel(n=64 << 20, offset=1)) == 0.25


def main():
    d = st.tempdir("sampled")
    spec = st.write(os.path.join(d, "sampled.ini"), SPEC)
    whole = os.path.join(d, "whole.h5")
    st.sweep(spec, "-o", whole, "-j", 2)
    check(whole)
    shards = [os.path.join(d, f"s{i}.h5") for i in range(2)]
    for i, s in enumerate(shards):
        st.sweep(spec, "-o", s, "--shard", f"{i}/2")
    merged = os.path.join(d, "merged.h5")
    st.sweep("merge", merged, *shards)
    check(merged)
    st.assert_same_results(whole, merged)
    # A sweep without sampling keeps its columns as they were.
    plain = os.path.join(d, "plain.h5")
    st.sweep(st.spec("smoke.ini"), "-o", plain)
    with h5py.File(plain, "r") as f:
        assert "sampled" not in f and "when_sampled" not in f["cycles"].attrs
    print("ok")


if __name__ == "__main__":
    main()
