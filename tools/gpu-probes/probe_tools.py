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


def cuda_device():
    """The GPU that CUDA's device 0 is, as nvidia-smi -i names it: the first of CUDA_VISIBLE_DEVICES
    (an index or a UUID), else 0. CUDA counts GPUs as nvidia-smi does only under
    CUDA_DEVICE_ORDER=PCI_BUS_ID (its default puts the fastest first), so that is set for every
    program this process starts."""
    os.environ["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
    return os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip() or "0"


def gpu_facts():
    query = ["nvidia-smi", "--query-gpu=name,compute_cap,driver_version", "--format=csv,noheader"]
    try:
        q = output(query + ["-i", cuda_device()])
    except subprocess.CalledProcessError:  # an id nvidia-smi does not take (a MIG instance's UUID)
        q = output(query)
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
