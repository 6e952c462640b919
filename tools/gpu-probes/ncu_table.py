"""Reading Nsight Compute's raw CSV and pairing its rows with a probe's cases.

A probe run with --ncu prints "#case,NAME,PARAMS" before each launch (probe_common.cuh); ncu
writes one row per profiled launch, in launch order, to its --log-file. pair() zips the two and
refuses to guess when their counts differ.
"""
import csv
import io


# calibrate's Nsight Compute sections: speed of light with its breakdowns, occupancy, launch, pipes.
CALIBRATE_SECTIONS = ["SpeedOfLight", "Occupancy", "LaunchStats", "ComputeWorkloadAnalysis", "MemoryWorkloadAnalysis"]


class NcuError(Exception):
    pass


def read_ncu_csv(path):
    """Returns (columns, units, rows) of an ncu --csv --page raw log; rows are dicts."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise NcuError(f"{path}: no ncu CSV header (a line starting with \"ID\"); ncu said:\n" + "\n".join(lines[-20:]))
    body = [line for line in lines[start:] if line.startswith('"')]
    table = list(csv.reader(io.StringIO("\n".join(body))))
    columns, units, data = table[0], table[1], table[2:]
    rows = []
    for n, r in enumerate(data):
        if len(r) != len(columns):
            raise NcuError(f"{path}: ncu row {n + 1} has {len(r)} cells, the header {len(columns)}")
        rows.append(dict(zip(columns, r)))
    return columns, units, rows


def read_markers(path):
    """The (name, params) of each '#case' line a probe printed, in order."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#case,"):
                _, name, params = line.rstrip("\n").split(",", 2)
                out.append((name, params))
    return out


def short_kernel_name(name):
    """'void MatrixMulCUDA<16>(float *, ...)' -> 'MatrixMulCUDA<16>'; 'readOffset(...)' -> 'readOffset'."""
    head = name.split("(", 1)[0].strip()
    return head.split()[-1] if head else name


def pair(markers_path, ncu_path):
    markers = read_markers(markers_path)
    columns, units, rows = read_ncu_csv(ncu_path)
    if len(markers) != len(rows):
        raise NcuError(f"{markers_path}: {len(markers)} cases but {ncu_path} has {len(rows)} ncu rows")
    return columns, units, [(name, params, row) for (name, params), row in zip(markers, rows)]


def with_columns_of(paired, other, metrics):
    """`paired` with each row's `metrics` taken from `other` (the same cases, from a second ncu run)."""
    if [(n, p) for n, p, _ in paired] != [(n, p) for n, p, _ in other]:
        raise NcuError("the second ncu run's cases differ from the first's")
    return [(n, p, {**row, **{m: o[m] for m in metrics}}) for (n, p, row), (_, _, o) in zip(paired, other)]


def metric_columns(columns):
    """The metric columns of a raw page: everything after ncu's own launch columns."""
    own = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
           "Grid Size", "Device", "CC", "Kernel Time", "Section Name", "Metric Name", "Metric Unit"}
    return [c for c in columns if c not in own]


def write_table(out_path, provenance, paired, metrics, extra=None):
    """case,params,kernel,<metrics...>[,extra columns]: one row per case, commas kept out of cells."""
    extra = extra or {}
    extra_names = sorted({k for v in extra.values() for k in v})
    with open(out_path, "w", newline="") as f:
        for line in provenance:
            f.write(f"# {line}\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case", "params", "kernel"] + metrics + extra_names)
        for name, params, row in paired:
            cells = [row.get(m, "").replace(",", "") for m in metrics]
            more = [extra.get((name, params), {}).get(k, "") for k in extra_names]
            w.writerow([name, params, short_kernel_name(row.get("Kernel Name", ""))] + cells + more)


def read_timed(path):
    """A timed probe's rows 'case,params,median_ms,min_ms,reps' -> {(case, params): {...}}."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("case,"):
                continue
            cells = line.rstrip("\n").split(",")
            if len(cells) == 5:
                out[(cells[0], cells[1])] = {"event_median_ms": cells[2]}
    return out
