"""Helpers for the sweep Python tests (not a test itself: ctest only picks up test_*.py).

The tests drive the real `warpsim sweep` binary with the synthetic point runner
(WARPSIM_SWEEP_RUNNER=synthetic[:MS]), so they exercise the sweep machinery -- processes,
signals, files -- in seconds and independently of the GPU model.
"""
import os
import subprocess
import sys
import tempfile

SKIP = 77


def ensure_modules():
    """Import h5py, pandas, xarray, h5netcdf; re-run under Debian's python3 if this one lacks them."""
    try:
        import h5py, pandas, xarray, h5netcdf  # noqa: F401
    except ImportError as e:
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            os.execv(system, [system] + sys.argv)
        print(f"skipped: {e} (install python3-h5py python3-pandas python3-xarray python3-h5netcdf)")
        sys.exit(SKIP)


def binary():
    b = os.environ.get("WARPSIM_BINARY")
    if not b:
        print("skipped: WARPSIM_BINARY is not set (run through ctest)")
        sys.exit(SKIP)
    return b


def source_dir():
    return os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def spec(name):
    return os.path.join(source_dir(), "sweeps", "specs", name)


def env(delay_ms=0, **extra):
    e = dict(os.environ)
    e["WARPSIM_SWEEP_RUNNER"] = f"synthetic:{delay_ms}" if delay_ms else "synthetic"
    for k in [k for k in e if k.startswith("SLURM_")]:
        del e[k]
    e.update({k: str(v) for k, v in extra.items()})
    return e


def sweep(*args, delay_ms=0, check=True, extra_env=None, **kw):
    r = subprocess.run([binary(), "sweep", *map(str, args)], env=env(delay_ms, **(extra_env or {})),
                       capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise AssertionError(f"warpsim sweep {args} exited {r.returncode}:\n{r.stderr}")
    return r


def tempdir(tag):
    return tempfile.mkdtemp(prefix=f"warpsim-{tag}-")


TWO_STUDIES = """[sweep]
seed = 3

[study unroll]
arch = kepler-k20x, hopper-h100
kernel = readOffsetUnroll
set.sm.max_threads_per_block = 512   # so block 1024 cannot run
n = 4096
block = 128, 1024
unroll = 1, 2, 4, 8
offset = 0, 16

[study persist]
arch = hopper-h100
kernel = persistKernel
hit_ratio = 0..1 step 0.25
persist_bytes = 1M..4M x 2
"""


def changed_presets(directory, preset, key, value):
    """A copy of the shipped presets (for WARPSIM_PRESET_DIR) with one value of one preset changed."""
    import re
    import shutil
    out = os.path.join(directory, "presets-" + key.replace(".", "-"))
    shutil.copytree(os.path.join(source_dir(), "models", "presets"), out)
    path = os.path.join(out, preset + ".ini")
    name = key.split(".", 1)[1]
    with open(path) as f:
        text = f.read()
    changed, n = re.subn(r"(?m)^(" + re.escape(name) + r"\s*=\s*)\S+", r"\g<1>" + value, text)
    assert n == 1, (path, key)
    assert changed != text, (path, key, "already " + value)  # a change must change something
    with open(path, "w") as f:
        f.write(changed)
    return out


def damaged_copies(result, directory):
    """Copies of a result file, each damaged one way a reader must refuse (exit 2, the file named):
    {name: path} for a missing /point, a /time_ms of one row, a /config that is not text, and the
    file cut at 3 kB."""
    import shutil
    import h5py
    damaged = {}
    for name, damage in {
        "no-point": lambda f: f.__delitem__("point"),
        "short-column": lambda f: (f.__delitem__("time_ms"), f.create_dataset("time_ms", data=[1.0])),
        "config-not-text": lambda f: (f.__delitem__("config"), f.create_dataset("config", data=[1, 2, 3])),
    }.items():
        path = damaged[name] = os.path.join(directory, f"damaged-{name}.h5")
        shutil.copy(result, path)
        with h5py.File(path, "a") as f:
            damage(f)
    truncated = damaged["truncated"] = os.path.join(directory, "damaged-truncated.h5")
    with open(result, "rb") as src, open(truncated, "wb") as dst:
        dst.write(src.read()[:3000])
    return damaged


def mpi_sweep(*args):
    """`mpirun -np 2 warpsim sweep ARGS` with the synthetic runner, or None (with the reason
    printed) when this build has no MPI or mpirun is missing."""
    import shutil
    help_text = subprocess.run([binary(), "sweep", "--help"], capture_output=True, text=True).stdout
    if "MPI on" not in help_text:
        print("(no MPI: this warpsim was built without it; configure with -DWARPSIM_MPI=ON after "
              "WARPSIM_MPI=ON scripts/bootstrap)")
        return None
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("(no MPI: mpirun not found; apt-get install openmpi-bin)")
        return None
    cmd = [mpirun, "-np", "2", "--oversubscribe", "--allow-run-as-root", "-x", "WARPSIM_SWEEP_RUNNER",
           binary(), "sweep", *map(str, args)]
    return subprocess.run(cmd, env=env(OMPI_MCA_rmaps_base_oversubscribe=1), capture_output=True, text=True,
                          timeout=300)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


# Differ between runs by design.
TIMING_DATASETS = {"wall_s"}
RUN_ATTRIBUTES = {"created_utc", "command_line"}
# Object references, compared through the dimension names instead.
REFERENCE_ATTRIBUTES = {"DIMENSION_LIST", "REFERENCE_LIST"}


def dim_names(dataset):
    """The dimension-scale names of each axis of an h5py dataset (what xarray calls dims)."""
    return [(list(dim.keys()) or [None])[0] for dim in dataset.dims]


def assert_same_results(a_path, b_path, ignore_attrs=RUN_ATTRIBUTES):
    """Every group, dataset, value, dtype, attribute and dimension equal, except timing."""
    import h5py
    import numpy as np

    def attrs(obj):
        return {k: v for k, v in obj.attrs.items() if k not in REFERENCE_ATTRIBUTES and k not in ignore_attrs}

    def same(x, y):
        if isinstance(x, np.ndarray) and x.dtype.kind == "f":
            return x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
        if isinstance(x, np.ndarray):
            return x.shape == y.shape and x.dtype == y.dtype and (x == y).all()
        return x == y

    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        names_a, names_b = [], []
        a.visit(names_a.append)
        b.visit(names_b.append)
        assert names_a == names_b, f"objects differ: {set(names_a) ^ set(names_b)}"
        assert attrs(a).keys() == attrs(b).keys()
        for k in attrs(a):
            assert same(a.attrs[k], b.attrs[k]), f"root attribute {k}: {a.attrs[k]} != {b.attrs[k]}"
        for name in names_a:
            x, y = a[name], b[name]
            assert type(x) is type(y), name
            for k in attrs(x):
                assert same(x.attrs[k], y.attrs[k]), f"{name} attribute {k}"
            if not isinstance(x, h5py.Dataset):
                continue
            assert x.dtype == y.dtype and x.shape == y.shape, f"{name}: {x.dtype}{x.shape} vs {y.dtype}{y.shape}"
            assert dim_names(x) == dim_names(y), name
            if name.split("/")[-1] in TIMING_DATASETS:
                continue
            assert same(x[()], y[()]), f"{name} differs"
