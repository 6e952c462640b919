"""h100-measured/store_acks* and h200/store_acks*: what ncu's sm__warps_active counts, and when a
block slot is free again (docs/model.md, "Occupancy as ncu counts it"), the same on both GPUs. ncu
counts each warp until its own exit: the per-warp records counted that way fall short of ncu by
what the records cannot see, 67-120 cycles a warp (the instructions before the first clock read
and after the last, the warp's launch and exit; 164-223 with the fence), while counting every warp
until its block's last warp exits overshoots ncu by more than that. A fence after the last store
keeps the warp until the store is acknowledged (800-1,200 cycles under these copies), and ncu
counts that wait: without the fence the warp exits ~35 cycles after its store. A block's slot
takes the next block 400-550 cycles after its last warp leaves, sooner than the fenced stores'
acknowledgement, so the SM does not wait for the block's stores to be acknowledged."""
import os
import sys

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(source, "analysis", "validation"))
import store_acks  # noqa: E402


def main():
    # The fenced stores' acknowledgement, least over the cases: the H100 1,123 cycles, the H200 799.
    for gpu, fenced_ack_least in (("h100-measured", 1000), ("h200", 700)):
        cases = store_acks.occupancies(os.path.join(source, "analysis", "validation", "data", gpu))
        assert len(cases) == 8, (gpu, cases.keys())
        for name, o in cases.items():
            assert 0 < o["extra"] < 250, (gpu, name, o)
            if not name.endswith("_fence"):
                assert o["extra"] < 150, (gpu, name, o)
                assert o["block"] - o["ncu"] > o["ncu"] - o["own"], (gpu, name, o)
                assert 400 <= o["slot_gap"] <= 550, (gpu, name, o)
                assert o["ack_wait"] < 60, (gpu, name, o)
                fenced = cases[name + "_fence"]
                assert fenced["ack_wait"] > fenced_ack_least, (gpu, name, fenced)
                assert fenced["ncu"] - o["ncu"] >= 0.08, (gpu, name, o, fenced)
                assert fenced["slot_gap"] < fenced["ack_wait"], (gpu, name, fenced)
    print("store_acks: on the H100 and the H200 ncu counts each warp until its own exit; a block's slot "
          "does not wait for its stores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
