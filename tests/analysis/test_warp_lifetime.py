"""h100-measured/warp_lifetime*: what ncu counts of a warp of fmaChain, the kernel the model runs
instruction for instruction (docs/model.md, "Occupancy as ncu counts it"). Later waves' warps are
counted about as long as their instructions take (835 cycles a warp at 64 iterations, eight
waves; the model's warps run 812), whatever the cache control. A launch's first wave is counted
800 cycles and more even without a store (fmaNoStore), and its warps' own clock64 reads are
700-1,000 cycles apart around 16 FFMAs: the first wave spends ~480 cycles and more inside its
first instructions, which the model does not (its warps of that launch run 229 cycles). The H200
does the same, at ~390 cycles."""
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import warp_lifetime  # noqa: E402


def time_ns(folder, case, params):
    """ncu's time of every launch of `case` with `params` in folder's warp_lifetime.csv."""
    rows = warp_lifetime.launches(os.path.join(folder, "warp_lifetime.csv"))
    return [t for c, p, _, t in rows if (c, p) == (case, params)]


def main():
    data = os.path.join(source, "analysis", "validation", "data", "h100-measured")
    cold = warp_lifetime.launches(os.path.join(data, "warp_lifetime.csv"))
    warm = warp_lifetime.launches(os.path.join(data, "warp_lifetime_none.csv"))
    assert [r[:2] for r in cold] == [r[:2] for r in warm], "the two files launch the same cases"
    counted = {}
    for (case, params, a, _), (_, _, n, _) in zip(cold, warm):
        counted.setdefault((case, params), []).append((a, n))
    waves = counted[("fmaChain_ilp1", "block=128;grid=16896;iters=64")]
    assert len(waves) == 1 and round(sum(waves[0]) / 2) == 835, waves  # docs: 835 (both cache controls)
    no_store = [v for block in (128, 1024) for pair in counted[("fmaNoStore", f"block={block};grid=132;iters=16")]
                for v in pair]
    assert (round(min(no_store)), round(max(no_store))) == (801, 879), no_store  # docs: 801-879
    spans = warp_lifetime.windows(os.path.join(data, "warp_lifetime_records.csv.xz"))
    assert round(spans["fmaRecorded_bs128"]) == 706 and round(spans["fmaRecorded_bs1024"]) == 1001, spans
    # The H200 (h200/README.md): the same at ~390 cycles, and its short launches ~0.5 us shorter.
    h200 = os.path.join(source, "analysis", "validation", "data", "h200")
    spans = warp_lifetime.windows(os.path.join(h200, "warp_lifetime_records.csv.xz"))
    assert round(spans["fmaRecorded_bs128"]) == 622 and round(spans["fmaRecorded_bs1024"]) == 788, spans
    one = "block=128;grid=132;iters=16"
    assert sorted(time_ns(data, "fmaChain_ilp1", one)) == [2528, 2560], time_ns(data, "fmaChain_ilp1", one)
    assert sorted(time_ns(h200, "fmaChain_ilp1", one)) == [2016, 2144], time_ns(h200, "fmaChain_ilp1", one)
    print("warp_lifetime: a launch's first warps spend ~480 cycles inside their first instructions; later waves do not")
    return 0


if __name__ == "__main__":
    sys.exit(main())
