"""mpirun -np 2 warpsim sweep: ranks split the points, rank 0 writes one file identical to a
single-process run. Skipped (exit 77, with the reason) when the build has no MPI."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()


def main():
    help_text = subprocess.run([st.binary(), "sweep", "--help"], capture_output=True, text=True).stdout
    if "MPI on" not in help_text:
        print("skipped: this warpsim was built without MPI (configure with -DWARPSIM_MPI=ON after "
              "WARPSIM_MPI=ON scripts/bootstrap)")
        sys.exit(st.SKIP)
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("skipped: mpirun not found (apt-get install openmpi-bin)")
        sys.exit(st.SKIP)
    d = st.tempdir("mpi")
    spec = st.write(os.path.join(d, "two.ini"), st.TWO_STUDIES)
    single = os.path.join(d, "single.h5")
    st.sweep(spec, "-o", single, "-j", 2)
    out = os.path.join(d, "mpi.h5")
    env = st.env(OMPI_MCA_rmaps_base_oversubscribe=1)
    cmd = [mpirun, "-np", "2", "--oversubscribe", "--allow-run-as-root", "-x", "WARPSIM_SWEEP_RUNNER",
           st.binary(), "sweep", spec, "-o", out, "-j", "1", "--progress", "log"]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert "(2 ranks)" in r.stderr, r.stderr
    st.assert_same_results(single, out)
    assert not [f for f in os.listdir(d) if ".journal" in f], os.listdir(d)
    print("ok")


if __name__ == "__main__":
    main()
