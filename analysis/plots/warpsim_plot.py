#!/usr/bin/env python3
"""Plots of a warpsim sweep result file (schema warpsim-sweep/1): PNG files a person can read.

    python3 analysis/plots/warpsim_plot.py RESULTS.h5 [-o DIR]

Writes, for each study of the sweep and each architecture/kernel in it:
  heatmap_<study>_<arch>_<kernel>.png     time over the study's first two axes (studies with >= 2 axes);
                                          further axes are held at their first value (named in the title)
  hit_ratio_<study>_<arch>_<kernel>.png   time over hit_ratio, one curve per persist_bytes (studies that
                                          sweep hit_ratio, e.g. persistKernel)
  efficiency_<study>_<kernel>.png         gld/gst efficiency per offset (or stride), one bar per arch and
                                          metric (studies that sweep offset or stride)
  roofline_<study>_<arch>.png             warp instructions per second over instructions per DRAM byte,
                                          under the preset's roof, each point coloured by its limiter
and prints each path on stdout. A plot the file has no study for is skipped, with a note on stderr.

Only the 1-D columns along `point` and /config are read, so shard files plot as well as whole
sweeps. Needs h5py, matplotlib and numpy; runs headless (Agg backend).
"""
import argparse
import math
import os
import re
import sys



def _import_or_reexec():
    """h5py, matplotlib and numpy come from Debian (python3-h5py, python3-matplotlib); a python3
    earlier on PATH (pyenv, a venv) may lack them, so the script re-runs itself under Debian's."""
    try:
        import h5py, matplotlib, numpy  # noqa: F401
    except ImportError as e:
        system = "/usr/bin/python3"
        if __name__ == "__main__" and os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
            os.execv(system, [system] + sys.argv)
        sys.exit(f"warpsim_plot: {e} (install python3-h5py python3-matplotlib python3-numpy)")


_import_or_reexec()
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roofline import roofline  # noqa: E402

SCHEMA = "warpsim-sweep/1"
GROUP_KEYS = ("arch", "kernel", "trace")

# Axis labels name the quantity and its unit (CONTRACT.md's parameter names).
UNITS = {
    "n": "elements", "block": "threads", "grid": "blocks", "offset": "elements", "unroll": "loads per thread",
    "stride": "elements", "width": "elements", "pad": "0/1", "ilp": "independent chains", "iters": "iterations",
    "steps": "steps", "hit_ratio": "fraction", "persist_bytes": "bytes", "data_bytes": "bytes",
    "working_set_bytes": "bytes", "window_bytes": "bytes", "set_aside_bytes": "bytes",
}
TIME_LABEL = "time (ms)"


class NotAResultFile(Exception):
    """The file is missing, not HDF5, or not a warpsim sweep result."""


def axis_label(name):
    if name.startswith("set."):
        return f"{name} (preset parameter)"
    unit = UNITS.get(name)
    return f"{name} ({unit})" if unit else name


def format_value(name, value):
    """Axis values as people write them: 512 KiB rather than 524288, 0.25, 128."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if name.endswith("_bytes") and isinstance(value, int) and value >= 1024:
        for unit in ("KiB", "MiB", "GiB"):
            value /= 1024
            if value < 1024 or unit == "GiB":
                return f"{value:g} {unit}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _decode(values):
    if values.dtype.kind in ("O", "S"):
        return np.array([v.decode() if isinstance(v, bytes) else str(v) for v in values], dtype=object)
    return values


def parse_config_axes(config_text):
    """{study: [axis names in order]} from /config: a study's setting is an axis when its resolved
    value is a list (a comma; a one-value axis keeps a trailing comma)."""
    studies, current = {}, None
    for line in config_text.splitlines():
        line = line.strip()
        m = re.fullmatch(r"\[study\s+([A-Za-z0-9_-]+)\]", line)
        if m:
            current = studies.setdefault(m.group(1), [])
            continue
        if line.startswith("["):
            current = None
            continue
        if current is None or "=" not in line or line.startswith("#"):
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if "," in value:
            current.append(key)
    return studies


def column_of(setting):
    """The result column of a setting: `grid` is stored as `param.grid` beside the /grid group."""
    return "param.grid" if setting == "grid" else setting


# What the plots read from every result file (CONTRACT.md); anything less is a damaged file.
REQUIRED_COLUMNS = ("config", "point", "study", "arch", "kernel", "time_ms", "status")


def load(path):
    """The sweep as {'columns': {name: array}, 'axes': {study: [axes]}, 'shard': str}."""
    if not os.path.exists(path):
        raise NotAResultFile(f"{path}: no such file")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise NotAResultFile(f"{path}: not a readable HDF5 file ({e})") from None
    with f:
        schema = f.attrs.get("schema")
        schema = schema.decode() if isinstance(schema, bytes) else schema
        if schema != SCHEMA:
            raise NotAResultFile(f"{path}: not a warpsim sweep result (schema {schema!r}, expected {SCHEMA!r})")
        for name in REQUIRED_COLUMNS:
            if not isinstance(f.get(name), h5py.Dataset):
                raise NotAResultFile(f"{path}: not a complete warpsim sweep result (no column /{name})")
        try:
            config = f["config"][()]
            presets = {name[len("preset "):]: _text(value) for name, value in f["config"].attrs.items()
                       if name.startswith("preset ")}
            columns = {}
            for name, item in f.items():
                if isinstance(item, h5py.Dataset) and item.ndim == 1:
                    columns[name] = _decode(item[()])
        except OSError as e:
            raise NotAResultFile(f"{path}: damaged HDF5 file ({e})") from None
        if not isinstance(config, (bytes, str)):
            raise NotAResultFile(f"{path}: /config is not the sweep's spec text")
        axes = parse_config_axes(config.decode() if isinstance(config, bytes) else config)
        rows = len(columns["point"])
        for name, values in columns.items():
            if len(values) != rows:
                raise NotAResultFile(f"{path}: column /{name} has {len(values)} rows, /point has {rows}")
        shard = f.attrs.get("shard", "")
    return {"columns": columns, "axes": axes, "presets": presets, "shard": _text(shard)}


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def groups_of(data, study):
    """Row indices of a study, split by (arch, kernel) in the order they first appear."""
    c = data["columns"]
    rows = np.flatnonzero(c["study"] == study)
    groups = {}
    for r in rows:
        groups.setdefault((c["arch"][r], c["kernel"][r]), []).append(r)
    return [(arch, kernel, np.array(rs)) for (arch, kernel), rs in groups.items()]


def distinct(values):
    """Distinct values in first-seen order (the spec's order: the sweep enumerates in it)."""
    out = []
    for v in values:
        if not any(v == o for o in out):
            out.append(v)
    return out


def ok_time(data, rows):
    """time_ms of rows, NaN where the point failed."""
    c = data["columns"]
    t = c["time_ms"][rows].astype(float)
    t[c["status"][rows] != 0] = np.nan
    return t


def held_rows(data, rows, held):
    """The rows whose values equal `held` ({axis: value}) on every held axis."""
    c = data["columns"]
    keep = np.ones(len(rows), dtype=bool)
    for axis, value in held.items():
        keep &= np.array([v == value for v in c[column_of(axis)][rows]])
    return rows[keep]


def held_text(held):
    if not held:
        return ""
    return "other axes held at " + ", ".join(f"{a}={format_value(a, v)}" for a, v in held.items())


def safe(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text)).strip("_")


def heatmap(data, study, arch, kernel, rows, x_axis, y_axis, held):
    """Figure: time over (x_axis, y_axis) with the other axes held; failed points left blank."""
    c = data["columns"]
    rows = held_rows(data, rows, held)
    xs, ys = distinct(c[column_of(x_axis)][rows]), distinct(c[column_of(y_axis)][rows])
    grid = np.full((len(ys), len(xs)), np.nan)
    times = ok_time(data, rows)
    for r, t in zip(rows, times):
        i = next(k for k, v in enumerate(ys) if v == c[column_of(y_axis)][r])
        j = next(k for k, v in enumerate(xs) if v == c[column_of(x_axis)][r])
        grid[i, j] = t
    fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.7 * len(ys) + 2.5))
    image = ax.imshow(np.ma.masked_invalid(grid), origin="lower", aspect="auto", cmap="viridis_r")
    fig.colorbar(image, ax=ax, label=TIME_LABEL)
    ax.set_xticks(range(len(xs)), [format_value(x_axis, v) for v in xs])
    ax.set_yticks(range(len(ys)), [format_value(y_axis, v) for v in ys])
    ax.set_xlabel(axis_label(x_axis))
    ax.set_ylabel(axis_label(y_axis))
    finite = grid[np.isfinite(grid)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0
    # Each cell carries its time, so the exact numbers are there without a colour lookup.
    for i in range(len(ys)):
        for j in range(len(xs)):
            v = grid[i, j]
            text = "failed" if math.isnan(v) else f"{v:.3g}"
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="black" if math.isnan(v) or v < middle else "white")
    title = f"{study}: {kernel} on {arch}"
    ax.set_title(title + (f"\n{held_text(held)}" if held else ""), fontsize=10)
    fig.tight_layout()
    return fig


def hit_ratio_curves(data, study, arch, kernel, rows, axes):
    """Figure: time over hit_ratio, one line per persist_bytes (or per value of the next axis)."""
    c = data["columns"]
    others = [a for a in axes if a != "hit_ratio"]
    series_axis = "persist_bytes" if "persist_bytes" in others else (others[0] if others else None)
    held = {a: distinct(c[column_of(a)][rows])[0] for a in others if a != series_axis}
    rows = held_rows(data, rows, held)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = distinct(c[column_of(series_axis)][rows]) if series_axis else [None]
    for value in series:
        line_rows = rows if value is None else rows[np.array([v == value for v in c[column_of(series_axis)][rows]])]
        x = c["hit_ratio"][line_rows].astype(float)
        order = np.argsort(x, kind="stable")
        label = None if value is None else f"{series_axis} = {format_value(series_axis, value)}"
        ax.plot(x[order], ok_time(data, line_rows)[order], marker="o", label=label)
    ax.set_xlabel(axis_label("hit_ratio"))
    ax.set_ylabel(TIME_LABEL)
    ax.grid(True, alpha=0.3)
    if series_axis:
        ax.legend(fontsize=8)
    title = f"{study}: {kernel} on {arch}, time over the L2 persisting hit_ratio"
    ax.set_title(title + (f"\n{held_text(held)}" if held else ""), fontsize=10)
    fig.tight_layout()
    return fig


def efficiency_bars(data, study, groups, axis, axes):
    """Figure: gld/gst efficiency per value of `axis`, one bar per (arch, metric); other axes held
    at their first value (efficiency is a property of the access pattern, not of block size)."""
    c = data["columns"]
    metrics = [m for m in ("gld_efficiency", "gst_efficiency") if m in c]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    values = distinct(c[column_of(axis)][np.concatenate([rows for _, _, rows in groups])])
    bars = [(arch, kernel, rows, m) for arch, kernel, rows in groups for m in metrics]
    width = 0.8 / max(1, len(bars))
    held_note = ""
    for k, (arch, kernel, rows, metric) in enumerate(bars):
        held = {a: distinct(c[column_of(a)][rows])[0] for a in axes if a != axis}
        held_note = held_text(held)
        line_rows = held_rows(data, rows, held)
        heights = []
        for v in values:
            match = [r for r in line_rows if c[column_of(axis)][r] == v and c["status"][r] == 0]
            heights.append(float(c[metric][match[0]]) if match else np.nan)
        label = f"{metric.split('_')[0]} {arch}" + (f" {kernel}" if len({g[1] for g in groups}) > 1 else "")
        ax.bar(np.arange(len(values)) + (k - (len(bars) - 1) / 2) * width, heights, width, label=label)
    ax.set_xticks(range(len(values)), [format_value(axis, v) for v in values])
    ax.set_xlabel(axis_label(axis))
    ax.set_ylabel("efficiency (%)")
    ax.set_ylim(0, 125)  # headroom above 100 % for the legend
    ax.legend(fontsize=8, loc="upper center", ncol=min(4, len(bars)))
    ax.set_title(f"{study}: global load/store efficiency per {axis}" + (f"\n{held_note}" if held_note else ""),
                 fontsize=10)
    fig.tight_layout()
    return fig


def make_plots(path, out_dir, note=lambda message: print(message, file=sys.stderr)):
    """Every plot of the file: a list of (png_path, figure). The caller closes the figures."""
    data = load(path)
    os.makedirs(out_dir, exist_ok=True)
    made = []

    def save(fig, name):
        png = os.path.join(out_dir, name)
        fig.savefig(png, dpi=110)
        made.append((png, fig))

    studies = [s for s in data["axes"] if s in set(data["columns"]["study"])]
    kinds_seen = {"heatmap": False, "hit_ratio": False, "efficiency": False}
    columns = data["columns"]
    for study in studies:
        axes = [a for a in data["axes"][study] if a not in GROUP_KEYS]
        groups = []
        for arch, kernel, rows in groups_of(data, study):
            if np.any(data["columns"]["status"][rows] == 0):
                groups.append((arch, kernel, rows))
            else:
                note(f"skipped {study} on {arch} ({kernel}): none of its {len(rows)} points finished (status 0)")
        if not groups:
            continue
        if len(axes) >= 2:
            kinds_seen["heatmap"] = True
            x_axis, y_axis = axes[0], axes[1]
            for arch, kernel, rows in groups:
                held = {a: distinct(data["columns"][column_of(a)][rows])[0] for a in axes[2:]}
                save(heatmap(data, study, arch, kernel, rows, x_axis, y_axis, held),
                     f"heatmap_{safe(study)}_{safe(arch)}_{safe(kernel)}.png")
        if "hit_ratio" in axes:
            kinds_seen["hit_ratio"] = True
            for arch, kernel, rows in groups:
                save(hit_ratio_curves(data, study, arch, kernel, rows, axes),
                     f"hit_ratio_{safe(study)}_{safe(arch)}_{safe(kernel)}.png")
        bar_axis = next((a for a in ("offset", "stride") if a in axes), None)
        if bar_axis:
            kinds_seen["efficiency"] = True
            for kernel in distinct([k for _, k, _ in groups]):
                mine = [g for g in groups if g[1] == kernel]
                save(efficiency_bars(data, study, mine, bar_axis, axes), f"efficiency_{safe(study)}_{safe(kernel)}.png")
        for arch in distinct([a for a, _, _ in groups]):
            rows = np.concatenate([r for a, _, r in groups if a == arch])
            fig = roofline(plt, columns, rows, study, arch, data["presets"][arch], note)
            if fig is not None:
                save(fig, f"roofline_{safe(study)}_{safe(arch)}.png")
    if not kinds_seen["heatmap"]:
        note("skipped heatmaps: no study sweeps two or more axes")
    if not kinds_seen["hit_ratio"]:
        note("skipped hit_ratio curves: no study sweeps hit_ratio (persistKernel studies do)")
    if not kinds_seen["efficiency"]:
        note("skipped efficiency bars: no study sweeps offset or stride")
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plots of a warpsim sweep result file (PNG).")
    parser.add_argument("results", help="sweep result file (HDF5, schema warpsim-sweep/1)")
    parser.add_argument("-o", "--out-dir", default=".", help="directory for the PNG files (default: .)")
    args = parser.parse_args(argv)
    try:
        made = make_plots(args.results, args.out_dir)
    except NotAResultFile as e:
        print(f"warpsim_plot: {e}", file=sys.stderr)
        return 2
    for png, fig in made:
        print(png)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
