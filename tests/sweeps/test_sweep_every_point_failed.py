"""A sweep none of whose points succeeded keeps its result file but does not exit 0, so a cluster
script that goes on to plot it is told (CONTRACT.md: 2 for input errors). The rule judges the
whole sweep: a run of one shard whose points all failed exits 0 with a note, and `sweep merge`
judges the merged sweep. Some points failing (an impossible block size on one axis value) is a
normal sweep: exit 0."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()
import h5py  # noqa: E402

# The synthetic runner, like the simulator, refuses a block above sm.max_threads_per_block when
# the point runs; the spec's own checks (block within [1, 1024]) pass.
ALL_REFUSED = """[sweep]
seed = 1

[study small_blocks]
arch = hopper-h100
kernel = readOffset
set.sm.max_threads_per_block = 128
n = 4096
block = 256, 512, 1024
"""

SOME_REFUSED = ALL_REFUSED.replace("block = 256, 512, 1024", "block = 64, 256, 512")


def statuses(path):
    with h5py.File(path, "r") as f:
        return list(f["status"][()])


def main():
    d = st.tempdir("every-point-failed")
    refused = st.write(os.path.join(d, "refused.ini"), ALL_REFUSED)
    some = st.write(os.path.join(d, "some.ini"), SOME_REFUSED)

    # Every point refused: exit 2, the file is written with each point's reason, and stderr says why.
    out = os.path.join(d, "refused.h5")
    r = st.sweep(refused, "-o", out, "--progress", "none", check=False)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "every point failed; point 0: " in r.stderr and "exceeds" in r.stderr, r.stderr
    assert statuses(out) == [1, 1, 1], statuses(out)
    assert not [f for f in os.listdir(d) if ".journal" in f], os.listdir(d)

    # One point runs: exit 0 (an impossible value on an axis is part of exploring it).
    out = os.path.join(d, "some.h5")
    r = st.sweep(some, "-o", out, "--progress", "none", check=False)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert statuses(out) == [0, 1, 1], statuses(out)
    assert "every point failed" not in r.stderr, r.stderr

    # Shards: each shard of the all-refused sweep exits 0 with a note (another shard could hold
    # the successes); the merge of them exits 2. Shard 1 of `some` holds only refused points.
    for name in ("refused", "some"):
        spec = os.path.join(d, name + ".ini")
        shards = []
        for i in range(3):
            shard = os.path.join(d, f"{name}.{i}.h5")
            r = st.sweep(spec, "-o", shard, "--shard", f"{i}/3", "--progress", "none", check=False)
            assert r.returncode == 0, (name, i, r.returncode, r.stderr)
            if name == "refused" or i > 0:
                assert f"note: every point of shard {i}/3 failed; point {i}: " in r.stderr, r.stderr
            shards.append(shard)
        merged = os.path.join(d, name + ".merged.h5")
        r = subprocess.run([st.binary(), "sweep", "merge", merged, *shards], capture_output=True, text=True)
        expected = 2 if name == "refused" else 0
        assert r.returncode == expected, (name, r.returncode, r.stderr)
        assert os.path.exists(merged)
        if name == "refused":
            assert "every point failed; point 0: " in r.stderr, r.stderr

    # Under mpirun every rank ends with rank 0's verdict (mpirun then exits 2).
    out = os.path.join(d, "mpi.h5")
    r = st.mpi_sweep(refused, "-o", out, "-j", "1", "--progress", "none")
    if r is not None:
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
        assert statuses(out) == [1, 1, 1], statuses(out)
    print("ok")


if __name__ == "__main__":
    main()
