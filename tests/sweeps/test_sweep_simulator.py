"""End to end with the real simulator (models::simulate): smoke.ini at -j 1 and -j 2 gives the same
file except wall_s, every point runs, and the grid loads in xarray with physical numbers."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()
import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402


def real(*args):
    env = {k: v for k, v in os.environ.items() if k != "WARPSIM_SWEEP_RUNNER" and not k.startswith("SLURM_")}
    r = subprocess.run([st.binary(), "sweep", *map(str, args)], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


def main():
    d = st.tempdir("simulator")
    one, two = os.path.join(d, "j1.h5"), os.path.join(d, "j2.h5")
    real(st.spec("smoke.ini"), "-o", one, "-j", 1, "--progress", "none")
    real(st.spec("smoke.ini"), "-o", two, "-j", 2, "--progress", "none")
    st.assert_same_results(one, two)
    ds = xr.open_dataset(one, engine="h5netcdf")
    assert (ds["status"].values == 0).all(), ds["message"].values
    assert (ds["cycles"].values > 0).all()
    assert "grid=" in str(ds["resolved_params"].values[0]), ds["resolved_params"].values[0]
    grid = xr.open_dataset(one, group="grid", engine="h5netcdf")
    assert dict(grid.sizes) == {"block": 3, "unroll": 4}
    # n = 4096 elements, 4 bytes each, read once per element and array: DRAM reads at least 2 x 16 KiB.
    assert np.all(grid["dram_read_bytes"].values >= 2 * 4096 * 4), grid["dram_read_bytes"].values
    print("ok")


if __name__ == "__main__":
    main()
