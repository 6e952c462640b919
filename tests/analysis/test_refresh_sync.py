"""analysis/validation/refresh_sync.py on the H200's h200/refresh_sync*.csv.xz: the figures
h200/README.md and docs/model.md quote. Lines of one 256-byte DRAM piece wait for the same refresh;
random lines share a refresh schedule once in 60-200 pairs (a pseudo-channel's, roughly), far more
often than per-bank refresh (once in ~3,000) and far less often than hopper-h200's six groups of
channels (once in six)."""
import os
import subprocess
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "analysis", "validation", "refresh_sync.py")

EXPECTED = {
    "refresh_sync.csv.xz": {
        "period_cycles": ["3883.0", "3875.9", "3886.7"], "clock_ghz": ["1.9796"], "period_ns": ["1962"],
        "wait_share": ["0.092"], "apart 128": ["112", "0.92"], "apart 512": ["107", "0.73"],
        "apart 1024": ["114", "0.26"], "apart 2048": ["114", "0.18"], "apart 4096": ["108", "0.22"],
        "random": ["34472", "891", "689", "0.0058", "3983", "3447", "0.0155"]},
    "refresh_sync_b.csv.xz": {
        "period_cycles": ["3883.5", "3876.5", "3887.0"], "clock_ghz": ["1.9798"], "period_ns": ["1962"],
        "wait_share": ["0.091"], "apart 128": ["110", "0.86"], "apart 512": ["102", "0.72"],
        "apart 1024": ["107", "0.31"], "apart 2048": ["111", "0.22"], "apart 4096": ["100", "0.24"],
        "random": ["32783", "818", "656", "0.0050", "3804", "3278", "0.0160"]},
}


def parse(stdout):
    files, current = {}, None
    for line in stdout.splitlines():
        words = line.split()
        if words[0] == "file":
            current = files.setdefault(words[1], {})
        elif words[0] == "apart":
            current[" ".join(words[:2])] = words[2:]
        else:
            current[words[0]] = words[1:]
    return files


def main():
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    files = parse(r.stdout)
    assert files == EXPECTED, files
    for name, out in files.items():
        pairs = int(out["random"][0])
        within, chance = int(out["random"][4]), int(out["random"][5])
        # Shared schedules: the excess within 5% of the period is beyond chance by over 5 sigma ...
        assert within - chance > 5 * chance ** 0.5, (name, within, chance)
        # ... and far below the one pair in six hopper-h200's six groups of channels would share.
        assert (within - chance) / pairs < 1 / 6 / 4, (name, within, chance, pairs)
        # Lines of one 256-byte piece share it nearly always, random ones seldom.
        assert float(out["apart 128"][1]) > 0.8 and float(out["apart 4096"][1]) < 0.3, out
    print("refresh_sync.py: lines share refresh schedules as pseudo-channels would, not in six groups")
    return 0


if __name__ == "__main__":
    sys.exit(main())
