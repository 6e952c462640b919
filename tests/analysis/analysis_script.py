"""Runs one of analysis/validation's scripts as its test does: the "key value" lines it prints, or
its refusal of a file it cannot read."""
import os
import subprocess
import sys


def key_values(script, *args):
    """{key: value} of the script's output lines; the test fails if the script does."""
    r = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return {k: float(v) for k, v in (line.split() for line in r.stdout.splitlines())}


def assert_refuses(script, directory, text, message, *args):
    """Writes `text` to directory/bad.csv and checks that the script exits non-zero with `message`
    (which names the file) on stderr."""
    bad = os.path.join(directory, "bad.csv")
    with open(bad, "w") as f:
        f.write(text)
    r = subprocess.run([sys.executable, script, bad, *args], capture_output=True, text=True)
    assert r.returncode != 0 and message in r.stderr, r.stderr
