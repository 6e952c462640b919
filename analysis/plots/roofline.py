"""Rooflines of a warpsim sweep: one figure per study and architecture, each point a finished
sweep point coloured by its limiter (`warpsim run --help`, docs/limiter.md).

Operational intensity is warp instructions per DRAM byte (read + written); performance is warp
instructions per second. The roof is the preset's: min(peak issue rate, intensity x DRAM
bandwidth), with the issue rate SMs x schedulers x dispatch units x clock and the bandwidth bus
width x data rate, both read from the preset text the result file keeps under /config.
"""
import numpy as np

# One colour per limiter, stable across figures (CONTRACT.md's names).
LIMITER_COLOURS = {
    "dram-bandwidth": "tab:red", "l2-bandwidth": "tab:orange", "l1-lsu": "tab:olive", "shared-banks": "tab:brown",
    "issue": "tab:purple", "latency": "tab:blue", "barrier": "tab:cyan", "tail": "tab:gray", "launch": "tab:pink",
}
UNKNOWN_COLOUR = "black"


def preset_values(preset_text):
    """{key: value} of a preset as /config's `preset <name>` attribute spells it ("key = value  # source")."""
    values = {}
    for line in preset_text.splitlines():
        if "=" not in line:
            continue
        key, rest = line.split("=", 1)
        values[key.strip()] = rest.split("#", 1)[0].strip()
    return values


def peaks(preset_text):
    """(warp instructions per second, DRAM bytes per second) the preset allows."""
    v = preset_values(preset_text)
    issue = (float(v["gpu.sms"]) * float(v["sm.schedulers"]) * float(v["sm.dispatch_per_scheduler"]) *
             float(v["gpu.core_clock_khz"]) * 1e3)
    dram = float(v["dram.bus_width_bits"]) / 8 * float(v["dram.data_rate_mtps"]) * 1e6
    return issue, dram


def roofline(plt, columns, rows, study, arch, preset_text, note):
    """Figure of the study's finished points on `arch`, or None when none has DRAM traffic."""
    issue_peak, dram_peak = peaks(preset_text)
    ok = rows[columns["status"][rows] == 0]
    inst = columns["warp_instructions"][ok].astype(float)
    dram = columns["dram_read_bytes"][ok].astype(float) + columns["dram_write_bytes"][ok].astype(float)
    seconds = columns["time_ms"][ok].astype(float) / 1e3
    moved = dram > 0
    if not np.any(moved):
        note(f"skipped the roofline of {study} on {arch}: no finished point moved DRAM bytes")
        return None
    if not np.all(moved):
        note(f"roofline of {study} on {arch}: {int(np.sum(~moved))} point(s) without DRAM traffic left out")
    intensity, performance = inst[moved] / dram[moved], inst[moved] / seconds[moved]
    limiters = columns["limiter"][ok][moved] if "limiter" in columns else np.array([""] * int(np.sum(moved)))
    fig, ax = plt.subplots(figsize=(7.5, 5))
    ridge = issue_peak / dram_peak
    lo, hi = min(intensity.min(), ridge) / 4, max(intensity.max(), ridge) * 4
    x = np.geomspace(lo, hi, 200)
    ax.plot(x, np.minimum(issue_peak, x * dram_peak), color="black", linewidth=1.5,
            label=f"roof: {issue_peak:.3g} warp-inst/s, {dram_peak / 1e12:.3g} TB/s")
    for name in sorted(set(limiters), key=lambda n: (n not in LIMITER_COLOURS, n)):
        pick = limiters == name
        ax.scatter(intensity[pick], performance[pick], s=28, color=LIMITER_COLOURS.get(name, UNKNOWN_COLOUR),
                   label=name or "(no limiter)", zorder=3)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("operational intensity (warp instructions per DRAM byte)")
    ax.set_ylabel("performance (warp instructions per second)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"{study}: roofline on {arch}, points coloured by limiter", fontsize=10)
    fig.tight_layout()
    return fig
