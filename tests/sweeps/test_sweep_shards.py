"""Clusters without a cluster: --shard slices, the Slurm array environment, merge, and the
generated Slurm submit script run against a stand-in sbatch that executes jobs locally."""
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()
import h5py  # noqa: E402

# A stand-in for sbatch: runs each job right away, array tasks one after another, with the
# SLURM_* variables a real array task sees, and checks that dependencies name earlier jobs.
FAKE_SBATCH = r'''#!/usr/bin/env python3
import os, subprocess, sys
state = os.environ["FAKE_SBATCH_STATE"]
jobs = int(open(state).read()) if os.path.exists(state) else 1000
job = jobs + 1
open(state, "w").write(str(job))
args = dict(a.split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
assert "--parsable" in sys.argv
with open(state + ".log", "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\n")
if "--dependency" in args:
    kind, dep = args["--dependency"].split(":", 1)
    assert kind == "afterok" and int(dep) < job, args["--dependency"]
tasks = [None]
if "--array" in args:
    lo, hi = map(int, args["--array"].split("-"))
    tasks = list(range(lo, hi + 1))
for t in tasks:
    env = dict(os.environ, SLURM_JOB_ID=str(job), SLURM_CPUS_PER_TASK=args.get("--cpus-per-task", "1"))
    if t is not None:
        env.update(SLURM_ARRAY_JOB_ID=str(job), SLURM_ARRAY_TASK_ID=str(t), SLURM_ARRAY_TASK_COUNT=str(len(tasks)),
                   SLURM_ARRAY_TASK_MIN=str(tasks[0]))
    r = subprocess.run(["sh", "-c", args["--wrap"]], env=env)
    if r.returncode != 0:
        sys.exit(r.returncode)
print(job)
'''


def main():
    d = st.tempdir("shards")
    spec = st.write(os.path.join(d, "two.ini"), st.TWO_STUDIES)
    whole = os.path.join(d, "whole.h5")
    st.sweep(spec, "-o", whole, "-j", 2)

    # --shard I/N by hand, then merge in any order.
    shards = []
    for i in range(3):
        out = os.path.join(d, f"s{i}.h5")
        st.sweep(spec, "--shard", f"{i}/3", "-o", out, "-j", 1)
        with h5py.File(out, "r") as f:
            assert f.attrs["shard"] == f"{i}/3" and "grid" not in f
            assert all(p % 3 == i for p in f["point"][:])
        shards.append(out)
    merged = os.path.join(d, "merged.h5")
    r = subprocess.run([st.binary(), "sweep", "merge", merged] + shards[::-1], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    st.assert_same_results(whole, merged)
    r = subprocess.run([st.binary(), "sweep", "merge", os.path.join(d, "bad.h5")] + shards[:2], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "are in none of the shards" in r.stderr, r.stderr
    assert not os.path.exists(os.path.join(d, "bad.h5"))

    # A shard simulated with another preset (or build) is not merged with the rest.
    presets = st.changed_presets(d, "hopper-h100", "dispatch.kernel_start_ns", "2500")
    other = os.path.join(d, "s2-other-model.h5")
    st.sweep(spec, "--shard", "2/3", "-o", other, "-j", 1, extra_env={"WARPSIM_PRESET_DIR": presets})
    r = subprocess.run([st.binary(), "sweep", "merge", os.path.join(d, "mixed.h5")] + shards[:2] + [other],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "another warpsim build or with other presets" in r.stderr, r.stderr
    assert not os.path.exists(os.path.join(d, "mixed.h5"))

    # Damaged shards: exit 2 naming the file and the cause, never an internal error or an output.
    damaged = st.damaged_copies(shards[2], d)
    for name, path in damaged.items():
        out = os.path.join(d, f"merged-{name}.h5")
        r = subprocess.run([st.binary(), "sweep", "merge", out] + shards[:2] + [path], capture_output=True, text=True)
        assert r.returncode == 2 and path in r.stderr and "internal" not in r.stderr, (name, r.returncode, r.stderr)
        assert not os.path.exists(out), name

    # Inside a Slurm array task the shard comes from the environment.
    out = os.path.join(d, "array1.h5")
    st.sweep(spec, "-o", out, extra_env={"SLURM_ARRAY_TASK_ID": 5, "SLURM_ARRAY_TASK_COUNT": 3,
                                         "SLURM_ARRAY_TASK_MIN": 4})
    with h5py.File(out, "r") as f:
        assert f.attrs["shard"] == "1/3"

    # The generated submit script: an array plus a merge that waits for it (afterok).
    script = os.path.join(d, "submit.sh")
    result = os.path.join(d, "slurm.h5")
    r = subprocess.run([st.binary(), "sweep", "slurm", spec, "-o", result, "--tasks", "3", "--cpus-per-task", "2",
                        "--script", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = open(script).read()
    assert "--array=0-$((TASKS - 1))" in text and "--dependency=afterok:$array_job" in text
    bindir = os.path.join(d, "bin")
    os.makedirs(bindir)
    fake = st.write(os.path.join(bindir, "sbatch"), FAKE_SBATCH)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    env = st.env(PATH=bindir + os.pathsep + os.environ["PATH"], FAKE_SBATCH_STATE=os.path.join(d, "sbatch-state"))
    r = subprocess.run(["bash", script], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "submitted array job 1001 (3 tasks) and merge job 1002" in r.stdout, r.stdout
    st.assert_same_results(whole, result)

    # Impossible cluster sizes are input errors: more array tasks than points (47), more worker
    # threads than any node has. -j above the point count is fine: the extra workers are not made.
    r = subprocess.run([st.binary(), "sweep", "slurm", spec, "--tasks", "48"], capture_output=True, text=True)
    assert r.returncode == 2 and "48 array tasks for 47 points" in r.stderr, r.stderr
    r = st.sweep(spec, "-o", os.path.join(d, "j.h5"), "-j", 100000, check=False)
    assert r.returncode == 2 and "at most 4096 worker threads" in r.stderr, r.stderr
    st.sweep(spec, "-o", os.path.join(d, "j.h5"), "-j", 4096)
    st.assert_same_results(whole, os.path.join(d, "j.h5"))
    print("ok")


if __name__ == "__main__":
    main()
