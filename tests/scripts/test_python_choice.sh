#!/usr/bin/env bash
# scripts/python picks a python3 that has h5py, matplotlib and numpy: with a python3 first on PATH
# that lacks them (as a pyenv or conda one may), it runs Debian's /usr/bin/python3 instead; with
# none that has them, it says how to fix it and exits 2.
set -euo pipefail
root="$1"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
cat > "$fake/python3" <<'PY'
#!/bin/sh
echo "fake python3 without packages" >&2
exit 1
PY
chmod +x "$fake/python3"
if ! /usr/bin/python3 -c 'import h5py, matplotlib, numpy' 2>/dev/null; then
  echo "skipped: /usr/bin/python3 lacks h5py, matplotlib or numpy"
  exit 77
fi
out="$(PATH="$fake:$PATH" "$root/scripts/python" -c 'import sys, h5py; print(sys.executable)')"
[[ "$out" == "/usr/bin/python3" ]] || { echo "expected /usr/bin/python3, got '$out'"; exit 1; }
# No interpreter with the packages: one line naming the fix, exit 2. The fake python3 stands in
# for both candidates by taking /usr/bin's place through a copy of the script that looks only on PATH.
sed 's|for py in python3 /usr/bin/python3; do|for py in python3; do|' "$root/scripts/python" > "$fake/python-only-path"
chmod +x "$fake/python-only-path"
set +e
err="$(PATH="$fake:$PATH" "$fake/python-only-path" -c 'pass' 2>&1)"
code=$?
set -e
[[ $code -eq 2 ]] || { echo "expected exit 2, got $code"; exit 1; }
[[ "$err" == *"run scripts/bootstrap"* ]] || { echo "no fix named: $err"; exit 1; }
echo "ok"
