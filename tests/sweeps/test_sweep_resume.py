"""Nothing lost: a sweep killed with SIGKILL, or stopped with SIGINT/SIGTERM, resumes with the same
command and ends with the same file as an uninterrupted run; a damaged journal line is ignored."""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()

DELAY_MS = 40  # per point: 47 points on 2 threads take about a second


def journal_records(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for line in f if line and not line.startswith("#"))


def start(spec, out):
    return subprocess.Popen([st.binary(), "sweep", spec, "-o", out, "-j", "2", "--progress", "log",
                             "--log-interval", "1"], env=st.env(DELAY_MS), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_records(journal, n, proc, timeout=30):
    deadline = time.time() + timeout
    while journal_records(journal) < n:
        assert proc.poll() is None, f"sweep ended early: {proc.communicate()}"
        assert time.time() < deadline, "no progress in the journal"
        time.sleep(0.02)


def main():
    d = st.tempdir("resume")
    spec = st.write(os.path.join(d, "two.ini"), st.TWO_STUDIES)
    reference = os.path.join(d, "reference.h5")
    st.sweep(spec, "-o", reference, "-j", 2)

    # SIGKILL mid-run: no chance to clean up; the journal holds what finished.
    out = os.path.join(d, "killed.h5")
    journal = out + ".journal"
    proc = start(spec, out)
    wait_for_records(journal, 10, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not os.path.exists(out), "no result file from a killed run"
    done_before = journal_records(journal)
    assert 10 <= done_before < 47, done_before
    # A record cut short by the kill, and plain damage, must be ignored, not fatal.
    with open(journal, "a") as f:
        f.write("12\t0\t99\tgarbage")
    r = st.sweep(spec, "-o", out, "-j", 2, "--progress", "log")
    assert f"{done_before} from the journal" in r.stderr, r.stderr
    assert not os.path.exists(journal)
    st.assert_same_results(reference, out)

    # SIGINT and SIGTERM: running points finish and are journaled, the exit code says so.
    for sig, code in [(signal.SIGINT, 130), (signal.SIGTERM, 143)]:
        out = os.path.join(d, f"stopped-{sig}.h5")
        proc = start(spec, out)
        wait_for_records(out + ".journal", 5, proc)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == code, (proc.returncode, err)
        assert "run the same command again to resume" in err, err
        assert not os.path.exists(out)
        saved = journal_records(out + ".journal")
        assert saved >= 5
        r = st.sweep(spec, "-o", out, "-j", 2, "--progress", "log")
        assert f"{saved} from the journal" in r.stderr, r.stderr
        st.assert_same_results(reference, out)

    # A journal from another sweep is refused, and nothing is overwritten.
    other = st.write(os.path.join(d, "other.ini"), st.TWO_STUDIES.replace("seed = 3", "seed = 4"))
    out = os.path.join(d, "mixed.h5")
    proc = start(spec, out)
    wait_for_records(out + ".journal", 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    r = st.sweep(other, "-o", out, check=False)
    assert r.returncode == 2 and "different sweep" in r.stderr, r.stderr

    # So is one whose points came from another model: the same spec, a preset changed in between
    # (as after an upgrade). With the presets it was started with, it resumes.
    presets = st.changed_presets(d, "hopper-h100", "dispatch.kernel_start_ns", "2500")
    r = st.sweep(spec, "-o", out, check=False, extra_env={"WARPSIM_PRESET_DIR": presets})
    assert r.returncode == 2 and "different sweep" in r.stderr and "preset" in r.stderr, r.stderr
    saved = journal_records(out + ".journal")
    r = st.sweep(spec, "-o", out, "--progress", "log")
    assert f"{saved} from the journal" in r.stderr, r.stderr
    st.assert_same_results(reference, out)
    print("ok")


if __name__ == "__main__":
    main()
