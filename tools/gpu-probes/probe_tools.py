"""The toolchain, the GPU's identity and the provenance lines every measurement file carries."""
import datetime
import os
import shutil
import subprocess
import sys


def tool(name):
    for d in [os.environ.get("CUDA_HOME", "") + "/bin", "/usr/local/cuda/bin"]:
        if d and os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    found = shutil.which(name)
    if not found:
        sys.exit(f"calibrate: {name} not found (PATH, CUDA_HOME/bin, /usr/local/cuda/bin)")
    return found


def output(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def gpu_facts():
    q = output(["nvidia-smi", "--query-gpu=name,compute_cap,driver_version", "--format=csv,noheader"])
    name, cc, driver = [c.strip() for c in q.splitlines()[0].split(",")]
    nvcc = output([tool("nvcc"), "--version"]).strip().splitlines()[-1]
    ncu = output([tool("ncu"), "--version"]).strip().splitlines()[-1]
    return {"name": name, "cc": cc, "driver": driver, "nvcc": nvcc, "ncu": ncu}


def provenance(facts, what, command):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [f"tools/gpu-probes/{os.path.basename(sys.argv[0])}: {what}", f"command: {' '.join(command)}",
            f"gpu: {facts['name']} (compute capability {facts['cc']}), driver {facts['driver']}",
            f"toolchain: {facts['nvcc']}; {facts['ncu']}", f"date: {date}"]


def write(path, header, text):
    with open(path, "w") as f:
        for line in header:
            f.write(f"# {line}\n")
        f.write(text)
