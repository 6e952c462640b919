#!/usr/bin/env python3
"""tools/gpu-probes/*.cu still compile for the GPU they are written for (nobody can run them
here, so a compile is what keeps them from rotting), and calibrate.cu, which must run on any GPU
of compute capability 7.0 or later, also for the oldest such GPU this nvcc builds for. Skipped
(exit 77) without nvcc."""
import os
import shutil
import subprocess
import sys
import tempfile

source_dir = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
if nvcc is None:
    print("skipped: no nvcc")
    sys.exit(77)
probes = os.path.join(source_dir, "tools", "gpu-probes")
sources = sorted(f for f in os.listdir(probes) if f.endswith(".cu"))
assert sources, "no probes found in " + probes
with tempfile.TemporaryDirectory() as tmp:
    for name in sources:
        result = subprocess.run([nvcc, "-O3", "-arch=sm_90", "-c", os.path.join(probes, name), "-o",
                                 os.path.join(tmp, name + ".o")], capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            sys.exit(f"{name} does not compile")
        print(f"{name}: compiles for sm_90")
    known = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True).stdout.split()
    oldest = min((int(a.split("_")[1]) for a in known if a.startswith("compute_") and int(a.split("_")[1]) >= 70),
                 default=None)
    if oldest is not None and oldest != 90:
        result = subprocess.run([nvcc, "-O3", f"-arch=sm_{oldest}", "-c", os.path.join(probes, "calibrate.cu"), "-o",
                                 os.path.join(tmp, "calibrate_oldest.o")], capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            sys.exit(f"calibrate.cu does not compile for sm_{oldest}")
        print(f"calibrate.cu: compiles for sm_{oldest}")
