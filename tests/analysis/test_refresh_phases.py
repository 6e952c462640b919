"""analysis/validation/refresh_phases.py on the H200's h200/refresh_phases_*.csv.xz: the figures
h200/README.md and docs/model.md quote. A line's DRAM loads wait for a window of ~290 ns that
recurs every 1,926 ns (not the 3.9 us hopper-h200 refreshes at), and the lines' windows are not
in one to five evenly spread groups: their phase differences gather at no multiple of 1/N of the
period where N groups would show (groups_expected), within 1/sqrt(392) = 0.05."""
import os
import subprocess
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "refresh_phases.py")


def main():
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = {line.split()[0]: line.split()[1:] for line in r.stdout.splitlines()}
    assert out["clock_ghz"] == ["1.9800"], out
    assert out["period_ns"] == ["1926", "1925.75", "1926"], out
    assert out["wait_share"] == ["0.082"], out
    assert out["extra_p10/p50/p90"] == ["229", "379", "513"], out
    assert out["window_ns"] == ["288"], out
    assert out["every_period_share"] == ["0.147", "0.185"], out
    assert out["groups"] == ["0.05", "0.02", "0.01", "0.04", "-0.05", "-0.05", "0.01", "-0.04", "of", "392"], out
    assert out["phase_sd"] == ["0.046"], out
    assert out["groups_expected"] == ["0.92", "0.72", "0.48", "0.27", "0.13", "0.05", "0.02", "0.01"], out
    # Not in N evenly spread groups for N = 1 to 5: each would show above its noise, none does.
    measured = [float(v) for v in out["groups"][:8]]
    expected = [float(v) for v in out["groups_expected"]]
    noise = 1 / 392 ** 0.5
    for n in range(5):
        assert expected[n] - measured[n] > 2 * noise, (n + 1, measured[n], expected[n])
    print("refresh_phases.py: the H200's windows every 1,926 ns, ~290 ns long, in no 1-5 groups")
    return 0


if __name__ == "__main__":
    sys.exit(main())
