"""h100-measured/branch_cost.csv: what a taken branch costs one warp, and hopper-h100's
latency.taken_branch taken from it (docs/model.md, "Branches"). Straight dependent FFMAs take
4.00 cycles each; in a loop of 16 a pass takes 71.0, so the FFMA after the back branch issues
10 cycles after it: the preset's value. Loops of 1-4 FFMAs take 27.6-29.2 cycles a pass, which
their loop control decides (what the model still misses there), and ILP 2's 16-FFMA loop 4.81
cycles an FFMA of a chain. The H200 measures the same, and hopper-h200 inherits the value."""
import os
import re
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import branch_cost  # noqa: E402


def preset_value(name, key):
    with open(os.path.join(source, "models", "presets", name)) as f:
        for line in f:
            m = re.match(rf"{key}\s*=\s*(\d+)", line)
            if m:
                return int(m.group(1))
    raise AssertionError(f"{name} has no {key}")


def main():
    r = branch_cost.runs(os.path.join(source, "analysis", "validation", "data", "h100-measured", "branch_cost.csv"))
    b, chain, pass_cycles = branch_cost.taken_branch(r)
    assert chain == 4.0 and round(pass_cycles, 1) == 71.0, (chain, pass_cycles)
    assert round(b) == preset_value("hopper-h100.ini", "taken_branch") == 10, b
    passes = [round(r[("loop", u, 1, 512)] * u / 512, 1) for u in (1, 2, 4)]
    assert passes == [29.2, 27.6, 28.2], passes
    assert round(branch_cost.per_ffma(r, "loop", 16, 2), 2) == 4.81
    # The H200 (h200/branch_cost.csv): the same cycles, so hopper-h200 may inherit the value.
    h200 = branch_cost.runs(os.path.join(source, "analysis", "validation", "data", "h200", "branch_cost.csv"))
    assert round(branch_cost.taken_branch(h200)[0]) == preset_value("hopper-h200.ini", "taken_branch") == 10
    print(f"branch_cost: a taken branch costs {b:.0f} cycles to the next issue, as hopper-h100 and -h200 say")
    return 0


if __name__ == "__main__":
    sys.exit(main())
