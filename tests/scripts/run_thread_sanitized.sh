#!/usr/bin/env bash
# Runs a ThreadSanitizer test binary. A report fails the run (exit 66). GCC 12's ThreadSanitizer
# cannot start on kernels that randomise mmap with more than 28 bits ("unexpected memory
# mapping"); there the binary runs again with address randomisation off (setarch -R).
set -uo pipefail
binary="$1"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$binary" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [[ $rc -ne 0 ]] && grep -q "unexpected memory mapping" "$log"; then
  echo "== again with address randomisation off (setarch -R)"
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" setarch "$(uname -m)" -R "$binary"
  rc=$?
fi
exit $rc
