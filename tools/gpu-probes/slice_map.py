"""l2_slice_pairs.csv: which lines one L2 slice serves, from l2_slice_map.cu's pairs under ncu
(calibrate's slice-map family, measure-h100's slice-map step). One thread reads lines a and b in
turn, 2,048 times each, a launch per pair; lts__t_requests_srcunit_tex.max is all the launch's
requests where one slice serves both lines, about half where two do. `warpsim arch derive` reads the
map from it (analysis/derive/derive_slice_map.cpp)."""
import os
import subprocess

import ncu_table
from probe_tools import provenance, tool

METRICS = ["lts__t_requests_srcunit_tex.sum", "lts__t_requests_srcunit_tex.max"]


def line_offset(k):
    """l2_slice_map.cu's line_offset_bytes: the first 32 lines are one 4 KB block, then one line
    every 4 KB."""
    return 128 * k if k < 32 else 4096 * (k - 31)


def slice_pairs(outdir, facts, exe, lines, compress, mode="pairs", name="l2_slice_pairs.csv"):
    """Writes OUTDIR/NAME (then .xz if `compress`), a row per pair of the first `lines` lines in
    launch order, as l2_slice_map.cu's '# case' lines name them; mode "blocks": the first lines of
    consecutive 4 KB blocks."""
    log, cases = os.path.join(outdir, ".ncu.log"), os.path.join(outdir, ".cases")
    cmd = [tool("ncu"), "--clock-control", "none", "--cache-control", "all", "--csv", "--page", "raw",
           "--print-units", "base", "--metrics", ",".join(METRICS), "--log-file", log, exe, mode, str(lines)]
    with open(cases, "w") as f:
        subprocess.run(cmd, stdout=f, check=True)
    with open(cases) as f:
        pairs = [line.split()[2:4] for line in f if line.startswith("# case a=")]
    _, _, rows = ncu_table.read_ncu_csv(log)
    if len(pairs) != len(rows):
        raise ncu_table.NcuError(f"{cases}: {len(pairs)} cases but {log} has {len(rows)} ncu rows")
    out = ["a,b,offset_a,offset_b,requests_max,requests_sum"]
    for (a, b), row in zip(pairs, rows):
        a, b = int(a.split("=")[1]), int(b.split("=")[1])
        count = lambda m: int(float(row[m].replace(",", "")))
        offset = (lambda k: 4096 * k) if mode == "blocks" else line_offset
        out.append(f"{a},{b},{offset(a)},{offset(b)},{count(METRICS[1])},{count(METRICS[0])}")
    shown = ["ncu"] + cmd[1:cmd.index("--log-file")] + ["./l2_slice_map", mode, str(lines)]
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.writelines(f"# {line}\n" for line in provenance(facts, name, shown))
        f.write("\n".join(out) + "\n")
    if compress:
        subprocess.run(["xz", "-T0", "-6", "-f", path], check=True)
    os.remove(log)
    os.remove(cases)
