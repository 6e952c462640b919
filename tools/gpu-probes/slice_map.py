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


def profiled(outdir, exe, mode, count, case_prefix):
    """l2_slice_map.cu MODE COUNT under ncu: its '# case' lines (those starting with case_prefix,
    split into fields after '# case') paired with ncu's rows, and the command as the files show it."""
    log, cases = os.path.join(outdir, ".ncu.log"), os.path.join(outdir, ".cases")
    cmd = [tool("ncu"), "--clock-control", "none", "--cache-control", "all", "--csv", "--page", "raw",
           "--print-units", "base", "--metrics", ",".join(METRICS), "--log-file", log, exe, mode, str(count)]
    with open(cases, "w") as f:
        subprocess.run(cmd, stdout=f, check=True)
    with open(cases) as f:
        launches = [line.split()[2:] for line in f if line.startswith(case_prefix)]
    _, _, rows = ncu_table.read_ncu_csv(log)
    if len(launches) != len(rows):
        raise ncu_table.NcuError(f"{cases}: {len(launches)} cases but {log} has {len(rows)} ncu rows")
    os.remove(log)
    os.remove(cases)
    count_of = lambda row, m: int(float(row[m].replace(",", "")))
    shown = ["ncu"] + cmd[1:cmd.index("--log-file")] + ["./l2_slice_map", mode, str(count)]
    return [(fields, count_of(row, METRICS[1]), count_of(row, METRICS[0])) for fields, row in zip(launches, rows)], shown


def write_table(outdir, facts, name, shown, lines, compress):
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.writelines(f"# {line}\n" for line in provenance(facts, name, shown))
        f.write("\n".join(lines) + "\n")
    if compress:
        subprocess.run(["xz", "-T0", "-6", "-f", path], check=True)


def slice_pairs(outdir, facts, exe, lines, compress, mode="pairs", name="l2_slice_pairs.csv"):
    """Writes OUTDIR/NAME (then .xz if `compress`), a row per pair of the first `lines` lines in
    launch order, as l2_slice_map.cu's '# case' lines name them; mode "blocks": the first lines of
    consecutive 4 KB blocks."""
    launches, shown = profiled(outdir, exe, mode, lines, "# case a=")
    out = ["a,b,offset_a,offset_b,requests_max,requests_sum"]
    for fields, top, total in launches:  # a=A b=B offset_a=BYTES offset_b=BYTES, as the probe names them
        out.append(",".join(f.split("=")[1] for f in fields) + f",{top},{total}")
    write_table(outdir, facts, name, shown, out, compress)


def slice_weighted(outdir, facts, exe, blocks, name="l2_slice_weighted.csv"):
    """Writes OUTDIR/NAME.xz: l2_slice_map.cu weighted under ncu, a row per launch (block x, the
    blocks y it read beside x, ';'-separated, and the counts: requests_max less 8,192 has bit i+1
    set where x's slice serves the i-th y)."""
    launches, shown = profiled(outdir, exe, "weighted", blocks, "# case x=")
    out = ["x,y,requests_max,requests_sum"]
    for (x, y), top, total in launches:
        out.append(f"{x.split('=')[1]},{y.split('=')[1]},{top},{total}")
    write_table(outdir, facts, name, shown, out, compress=True)
