"""mpirun -np 2 warpsim sweep: ranks split the points, rank 0 writes one file identical to a
single-process run. Skipped (exit 77, with the reason) when the build has no MPI."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()


def main():
    d = st.tempdir("mpi")
    spec = st.write(os.path.join(d, "two.ini"), st.TWO_STUDIES)
    single = os.path.join(d, "single.h5")
    st.sweep(spec, "-o", single, "-j", 2)
    out = os.path.join(d, "mpi.h5")
    r = st.mpi_sweep(spec, "-o", out, "-j", "1", "--progress", "log")
    if r is None:
        sys.exit(st.SKIP)
    assert r.returncode == 0, f"mpirun exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert "(2 ranks)" in r.stderr, r.stderr
    st.assert_same_results(single, out)
    assert not [f for f in os.listdir(d) if ".journal" in f], os.listdir(d)
    print("ok")


if __name__ == "__main__":
    main()
